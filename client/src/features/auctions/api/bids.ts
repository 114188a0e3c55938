import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { auctionKey } from './auction-detail';
import type { AuctionDetail } from '@shared/schemas/auctions';
import type { BidResponse, PlacedBidResponse } from '@shared/schemas/bids';

export const bidsKey = (auctionId: number) => ['auctions', 'bids', auctionId] as const;

/** GET /api/bids/{auctionId}/ → oldest first. */
export const fetchBids = (auctionId: number, signal?: AbortSignal) => apiFetch<BidResponse[]>(`/api/bids/${auctionId}/`, { signal });

export const bidsQuery = (auctionId: number) =>
  queryOptions({ queryKey: bidsKey(auctionId), queryFn: ({ signal }) => fetchBids(auctionId, signal) });

export const useBids = (auctionId: number, enabled = true) => useQuery({ ...bidsQuery(auctionId), enabled });

/** POST /api/bids/ {auction_item_id, amount} → 201. */
export const placeBid = (auctionId: number, amount: number) =>
  apiFetch<PlacedBidResponse>('/api/bids/', { method: 'POST', body: { auction_item_id: auctionId, amount } });

/** Applies an accepted bid to the cached detail: the server's price, count and end date win. */
export function applyBidToDetail(detail: AuctionDetail, placed: PlacedBidResponse): AuctionDetail {
  return {
    ...detail,
    current_price: Math.max(detail.current_price, placed.current_price),
    bid_count: placed.bid_count,
    end_date: placed.end_date,
  };
}

export function usePlaceBid(auctionId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (amount: number) => placeBid(auctionId, amount),
    onSuccess: (placed) => {
      qc.setQueryData<AuctionDetail>(auctionKey(auctionId), (old) => (old ? applyBidToDetail(old, placed) : old));
      void qc.invalidateQueries({ queryKey: bidsKey(auctionId) });
      void qc.invalidateQueries({ queryKey: ['auctions', 'list'] });
    },
  });
}
