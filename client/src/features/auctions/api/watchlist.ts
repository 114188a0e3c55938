import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { auctionKey } from './auction-detail';
import { auctionListsKey } from './auctions-list';
import type { AuctionCard, AuctionDetail, Paged } from '@shared/schemas/auctions';
import type { WatchResponse } from '@shared/schemas/watchlist';

/** The /pracene pages (GET /api/watchlist/): refetched after every toggle. */
export const watchedListsKey = [...auctionListsKey, 'watched'] as const;

/** POST /api/watchlist/ {auction_item_id} → 201 (200 when already watched). */
export const watchAuction = (auctionId: number) =>
  api('POST /api/watchlist/', { body: { auction_item_id: auctionId } });

/** DELETE /api/watchlist/{id}/ → 204 (also when not watched). */
export const unwatchAuction = (auctionId: number) => api('DELETE /api/watchlist/:auctionId/', { params: { auctionId } });

/** The detail with `watched` set; the count moves by one only when the state changes. */
export function detailWatched(d: AuctionDetail | undefined, watched: boolean, count?: number): AuctionDetail | undefined {
  if (!d) return d;
  const next = count ?? (d.watched === watched ? d.watch_count : Math.max(0, d.watch_count + (watched ? 1 : -1)));
  if (d.watched === watched && next === d.watch_count) return d;
  return { ...d, watched, watch_count: next };
}

/** One cached list page with the card of `auctionId` marked (other pages returned untouched). */
export function pageWatched(page: Paged<AuctionCard> | undefined, auctionId: number, watched: boolean): Paged<AuctionCard> | undefined {
  if (!page || !page.results.some((a) => a.id === auctionId && a.watched !== watched)) return page;
  return { ...page, results: page.results.map((a) => (a.id === auctionId ? { ...a, watched } : a)) };
}

/**
 * "Prati": optimistic. The detail and every cached card show the new state at once; an error puts back what
 * was there before the click (the caller shows the message).
 */
export function useToggleWatch(auctionId: number) {
  const qc = useQueryClient();
  const mark = (watched: boolean) => {
    qc.setQueryData<AuctionDetail>(auctionKey(auctionId), (d) => detailWatched(d, watched));
    qc.setQueriesData<Paged<AuctionCard>>({ queryKey: auctionListsKey }, (p) => pageWatched(p, auctionId, watched));
  };
  return useMutation<WatchResponse | void, Error, boolean>({
    mutationFn: (watch) => (watch ? watchAuction(auctionId) : unwatchAuction(auctionId)),
    onMutate: async (watch) => {
      // A read in flight would overwrite the optimistic state with the old one.
      await Promise.all([qc.cancelQueries({ queryKey: auctionKey(auctionId), exact: true }), qc.cancelQueries({ queryKey: auctionListsKey })]);
      mark(watch);
    },
    // Back to the state before the click; live price patches made meanwhile stay.
    onError: (_err, watch) => mark(!watch),
    onSuccess: (res, watch) => {
      if (watch && res) qc.setQueryData<AuctionDetail>(auctionKey(auctionId), (d) => detailWatched(d, true, res.watch_count));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: watchedListsKey }),
  });
}
