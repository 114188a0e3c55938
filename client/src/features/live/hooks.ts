import { useEffect, useMemo } from 'react';
import { live } from './live-client';
import { useStore } from './store';

/**
 * The detail page of an auction: joins its room while mounted (snapshot + seq, then live events patch the
 * cache). Returns whether a bid extended the auction while the page was open (soft close).
 */
export function useLiveAuction(id: number): { extended: boolean; live: boolean } {
  useEffect(() => live.acquireDetail(id), [id]);
  const extended = useStore(live.extended);
  const ready = useStore(live.ready);
  return { extended: extended.has(id), live: ready.has(id) };
}

/**
 * A list page: watches the rooms of the cards on screen so prices, bid counts and end dates move.
 * Returns true once every card is followed live.
 */
export function useWatchAuctions(ids: readonly number[] | undefined): boolean {
  const key = useMemo(() => (ids && ids.length ? [...new Set(ids)].sort((a, b) => a - b).join(',') : ''), [ids]);
  useEffect(() => {
    if (!key) return;
    return live.acquireWatch(key.split(',').map(Number));
  }, [key]);
  const ready = useStore(live.ready);
  return key !== '' && key.split(',').every((id) => ready.has(Number(id)));
}
