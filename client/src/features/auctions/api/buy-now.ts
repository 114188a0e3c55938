import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { AuctionDetail, BuyNowResponse } from '@shared/schemas/auctions';
import { auctionKey } from './auction-detail';
import { bidsKey } from './bids';
import { auctionListsKey } from './auctions-list';

/** POST /api/auctions/{id}/buy-now/ → 201 {auction_id, price, winner} (issue 25, "Kupi odmah"). */
export const buyNow = (auctionId: number) => api('POST /api/auctions/:id/buy-now/', { params: { id: auctionId } });

/** The detail after one's own buy-now: ended, sold to me at that price (the live events say the same). */
export function applyBuyNowToDetail(detail: AuctionDetail, bought: BuyNowResponse): AuctionDetail {
  return {
    ...detail,
    status: 'ended',
    current_price: bought.price,
    bid_count: Math.max(detail.bid_count, 1),
    winner: bought.winner,
    outcome: 'sold',
    buy_now_price: null,
    end_date: new Date().toISOString() < detail.end_date ? new Date().toISOString() : detail.end_date,
  };
}

export function useBuyNow(auctionId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => buyNow(auctionId),
    onSuccess: (bought) => {
      qc.setQueryData<AuctionDetail>(auctionKey(auctionId), (old) => (old ? applyBuyNowToDetail(old, bought) : old));
      void qc.invalidateQueries({ queryKey: bidsKey(auctionId) });
      void qc.invalidateQueries({ queryKey: auctionListsKey });
    },
  });
}
