import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sr } from '@shared/texts/sr';
import { ApiError, NetworkError, api } from '../../../lib/api';
import { auctionListsKey } from './auctions-list';
import type { AuctionCard, Paged } from '@shared/schemas/auctions';

/** DELETE /api/auctionItems/delete/{id}/ → 204. */
export const deleteAuction = (id: number) => api('DELETE /api/auctionItems/delete/:id/', { params: { id } });

const t = sr.deleteAuction;

/** The alert text of spec §8 for a failed delete. */
export function deleteErrorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    const detail = typeof err.body.detail === 'string' && err.body.detail ? err.body.detail : t.unexpectedDetail;
    switch (err.status) {
      case 400:
        return `${t.badRequest} ${detail}`;
      case 403:
        return `${t.forbidden} ${detail}`;
      case 404:
        return `${t.notFound} ${detail}`;
      case 500:
        return `${t.serverError} ${detail}`;
      default:
        return `${t.unexpected} ${detail}`;
    }
  }
  if (err instanceof NetworkError) return t.network;
  return t.other;
}

/** Deletes and removes the card from every cached list page. */
export function useDeleteAuction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteAuction,
    onSuccess: (_v, id) => {
      qc.setQueriesData<Paged<AuctionCard>>({ queryKey: auctionListsKey }, (old) =>
        old ? { ...old, count: Math.max(0, old.count - 1), results: old.results.filter((a) => a.id !== id) } : old,
      );
      void qc.invalidateQueries({ queryKey: auctionListsKey });
    },
  });
}
