import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { EditAuctionForm } from '@shared/schemas/auction-edits';
import { auctionKey } from './auction-detail';
import { auctionListsKey } from './auctions-list';

/** PATCH /api/auctions/{id}/ → the seller's detail (issue 26). */
export const editAuction = (id: number, body: EditAuctionForm) => api('PATCH /api/auctions/:id/', { params: { id }, body });

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
