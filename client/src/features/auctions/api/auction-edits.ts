import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { EditAuctionForm } from '@shared/schemas/auction-edits';
import { auctionKey } from './auction-detail';
import { auctionListsKey } from './auctions-list';

/** POST /api/auctions/{id}/relist/ → 201 {id} of the new auction (issue 26). */
export const relistAuction = (id: number, body: { auction_duration: number; current_price?: number }) =>
  api('POST /api/auctions/:id/relist/', { params: { id }, body });

/** PATCH /api/auctions/{id}/ → the seller's detail (issue 26). */
export const editAuction = (id: number, body: EditAuctionForm) => api('PATCH /api/auctions/:id/', { params: { id }, body });

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

/** Edits; the answer is the detail, and the lists are read again. */
export function useEditAuction(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: EditAuctionForm) => editAuction(id, body),
    onSuccess: (detail) => {
      qc.setQueryData(auctionKey(id), detail);
      void qc.invalidateQueries({ queryKey: auctionListsKey });
    },
  });
}
