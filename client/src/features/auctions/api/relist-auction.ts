import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { auctionKey } from './auction-detail';
import { auctionListsKey } from './auctions-list';

/** POST /api/auctions/{id}/relist/ → 201 {id} of the new auction (issue 26). */
export const relistAuction = (id: number, body: { auction_duration: number; current_price?: number }) =>
  api('POST /api/auctions/:id/relist/', { params: { id }, body });

/** Relists; the lists (the old card now says it was relisted, the new one is there) are read again. */
export function useRelistAuction(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { auction_duration: number; current_price?: number }) => relistAuction(id, body),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: auctionKey(id) });
      void qc.invalidateQueries({ queryKey: auctionListsKey });
    },
  });
}

