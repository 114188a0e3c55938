import { useEffect, useMemo } from 'react';
import { live } from './live-client';
import { useStore } from './store';

/**
 * The detail page of an auction: joins its room while mounted (snapshot + seq, then live events patch the
 * cache). Returns whether a bid extended the auction while the page was open (soft close).
 */
export function useLiveAuction(id: number): { extended: boolean } {
  useEffect(() => live.acquireDetail(id), [id]);
  const extended = useStore(live.extended);
  return { extended: extended.has(id) };
}

/** A list page: watches the rooms of the cards on screen so prices, bid counts and end dates move. */
export function useWatchAuctions(ids: readonly number[] | undefined): void {
  const key = useMemo(() => (ids && ids.length ? [...new Set(ids)].sort((a, b) => a - b).join(',') : ''), [ids]);
  useEffect(() => {
    if (!key) return;
    return live.acquireWatch(key.split(',').map(Number));
  }, [key]);
}

export function useLiveStatus() {
  return useStore(live.status);
}
