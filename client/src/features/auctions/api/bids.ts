import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { isFollowedLive } from '../../live/following';
import { auctionKey } from './auction-detail';
import { auctionListsKey } from './auctions-list';
import type { AuctionDetail } from '@shared/schemas/auctions';
import type { PlacedBidResponse } from '@shared/schemas/bids';

export const bidsKey = (auctionId: number) => ['auctions', 'bids', auctionId] as const;

/** GET /api/bids/{auctionId}/ → oldest first. */
export const fetchBids = (auctionId: number, signal?: AbortSignal) => api('GET /api/bids/:auctionId/', { params: { auctionId }, signal });

export const bidsQuery = (auctionId: number) =>
  queryOptions({ queryKey: bidsKey(auctionId), queryFn: ({ signal }) => fetchBids(auctionId, signal) });

export const useBids = (auctionId: number, enabled = true) => useQuery({ ...bidsQuery(auctionId), enabled });

/** POST /api/bids/ {auction_item_id, amount} → 201. */
export const placeBid = (auctionId: number, amount: number) =>
  api('POST /api/bids/', { body: { auction_item_id: auctionId, amount } });

/** Applies an accepted bid to the cached detail: the server's price, count and end date win. */
export function applyBidToDetail(detail: AuctionDetail, placed: PlacedBidResponse): AuctionDetail {
  return {
    ...detail,
    current_price: Math.max(detail.current_price, placed.current_price),
    bid_count: placed.bid_count,
    end_date: placed.end_date,
  };
}

/**
 * After one's own accepted bid (or a maximum that placed rows). While the live layer follows the auction, its
 * `bid:placed` events (mine and any automatic answer) patch the history and every cached card, so neither is
 * refetched; only the lists of auctions I bid on may gain this one, which no event tells: they are marked
 * stale, to be read again when next shown. Not followed (socket not there yet, or lost): nobody else will
 * tell, so the history and the lists are refetched.
 */
export function refreshAfterOwnBid(qc: QueryClient, auctionId: number): void {
  if (isFollowedLive(auctionId)) {
    void qc.invalidateQueries({ queryKey: [...auctionListsKey, 'bids'], refetchType: 'none' });
    return;
  }
  void qc.invalidateQueries({ queryKey: bidsKey(auctionId) });
  void qc.invalidateQueries({ queryKey: auctionListsKey });
}

export function usePlaceBid(auctionId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (amount: number) => placeBid(auctionId, amount),
    onSuccess: (placed) => {
      qc.setQueryData<AuctionDetail>(auctionKey(auctionId), (old) => (old ? applyBidToDetail(old, placed) : old));
      refreshAfterOwnBid(qc, auctionId);
    },
  });
}
