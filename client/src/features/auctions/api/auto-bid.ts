import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { auctionKey } from './auction-detail';
import { refreshAfterOwnBid } from './bids';
import type { AuctionDetail } from '@shared/schemas/auctions';
import type { AutoBidStateResponse } from '@shared/schemas/autobid';

/** The caller's own active maximum on one auction (never anyone else's). */
export const autoBidKey = (auctionId: number) => ['auctions', 'auto-bid', auctionId] as const;

/** GET /api/auctions/{id}/auto-bid/ → `{max_amount}` or `{max_amount: null}` (logged-in only). */
export const fetchAutoBid = (auctionId: number, signal?: AbortSignal) => api('GET /api/auctions/:id/auto-bid/', { params: { id: auctionId }, signal });

export const autoBidQuery = (auctionId: number) =>
  queryOptions({ queryKey: autoBidKey(auctionId), queryFn: ({ signal }) => fetchAutoBid(auctionId, signal), staleTime: 5_000 });

export const useAutoBid = (auctionId: number, enabled: boolean) => useQuery({ ...autoBidQuery(auctionId), enabled });

/** PUT /api/auctions/{id}/auto-bid/ {max_amount} → 200 `{max_amount, current_price, bid_count, leading}`. */
export const putAutoBid = (auctionId: number, maxAmount: number) =>
  api('PUT /api/auctions/:id/auto-bid/', { params: { id: auctionId }, body: { max_amount: maxAmount } });

/**
 * Only the leader holds an active maximum: a maximum beaten at once (`leading: false`) is spent, so the
 * cached state becomes null; the price and count of the answer win over older cached ones.
 */
export function useSetAutoBid(auctionId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (maxAmount: number) => putAutoBid(auctionId, maxAmount),
    onSuccess: (res) => {
      qc.setQueryData<AutoBidStateResponse>(autoBidKey(auctionId), { max_amount: res.leading ? res.max_amount : null });
      qc.setQueryData<AuctionDetail>(auctionKey(auctionId), (d) =>
        d && res.current_price >= d.current_price ? { ...d, current_price: res.current_price, bid_count: Math.max(d.bid_count, res.bid_count) } : d,
      );
      refreshAfterOwnBid(qc, auctionId);
    },
  });
}
