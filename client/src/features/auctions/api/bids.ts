import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { auctionKey } from './auction-detail';
import type { AuctionDetail, Bid } from './types';

export const bidsKey = (auctionId: number) => ['auctions', 'bids', auctionId] as const;

/** GET /api/bids/{auctionId}/ → oldest first. */
export const fetchBids = (auctionId: number, signal?: AbortSignal) => apiFetch<Bid[]>(`/api/bids/${auctionId}/`, { signal });

export const bidsQuery = (auctionId: number) =>
  queryOptions({ queryKey: bidsKey(auctionId), queryFn: ({ signal }) => fetchBids(auctionId, signal) });

export const useBids = (auctionId: number, enabled = true) => useQuery({ ...bidsQuery(auctionId), enabled });

/** What POST /api/bids/ answers (the accepted bid; newer servers add the auction's new state). */
export interface PlacedBid extends Partial<Bid> {
  amount: number;
  current_price?: number;
  bid_count?: number;
  end_date?: string;
}

/** POST /api/bids/ {auction_item_id, amount} → 201. */
export const placeBid = (auctionId: number, amount: number) =>
  apiFetch<PlacedBid>('/api/bids/', { method: 'POST', body: { auction_item_id: auctionId, amount } });

/** Applies an accepted bid to the cached detail: the server's price, count and end date win. */
export function applyBidToDetail(detail: AuctionDetail, placed: PlacedBid, amount: number): AuctionDetail {
  return {
    ...detail,
    current_price: Math.max(detail.current_price, placed.current_price ?? placed.amount ?? amount),
    bid_count: placed.bid_count ?? detail.bid_count + 1,
    end_date: placed.end_date ?? detail.end_date,
  };
}

export function usePlaceBid(auctionId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (amount: number) => placeBid(auctionId, amount),
    onSuccess: (placed, amount) => {
      qc.setQueryData<AuctionDetail>(auctionKey(auctionId), (old) => (old ? applyBidToDetail(old, placed ?? { amount }, amount) : old));
      void qc.invalidateQueries({ queryKey: bidsKey(auctionId) });
      void qc.invalidateQueries({ queryKey: ['auctions', 'list'] });
    },
  });
}
