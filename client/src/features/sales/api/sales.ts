import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SaleRole } from '@shared/rules/sales';
import type { RatingForm } from '@shared/schemas/sales';
import { PAGE_SIZE } from '@shared/rules/limits';
import { api } from '../../../lib/api';

/** Every cached page of GET /api/sales/ and of the member profiles (a new rating changes both). */
export const salesKey = ['sales'] as const;
export const membersKey = ['members'] as const;

/** GET /api/sales/?role=&page= : the caller's purchases (`buyer`) or sales (`seller`), newest first. */
export const fetchSales = (role: SaleRole, page: number, signal?: AbortSignal) =>
  api('GET /api/sales/', { query: { role, page, page_size: PAGE_SIZE }, signal });

export const salesQuery = (role: SaleRole, page: number) =>
  queryOptions({
    queryKey: [...salesKey, role, page] as const,
    queryFn: ({ signal }) => fetchSales(role, page, signal),
    placeholderData: keepPreviousData,
  });

export const useSales = (role: SaleRole, page: number) => useQuery(salesQuery(role, page));

/** POST /api/sales/{auction_id}/rating/ {value, comment} → 201 the rating (final). */
export const rateSale = (auctionId: number, body: RatingForm) => api('POST /api/sales/:auctionId/rating/', { params: { auctionId }, body });

/** POST /api/ratings/{id}/reply/ {content} → 201 the rating with its answer. */
export const replyToRating = (ratingId: number, content: string) => api('POST /api/ratings/:id/reply/', { params: { id: ratingId }, body: { content } });

/** After a rating or an answer: the sales pages and the profiles (scores, ratings) read again. */
function useRefreshAfter() {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: salesKey }), qc.invalidateQueries({ queryKey: membersKey })]);
}

export function useRateSale(auctionId: number) {
  const refresh = useRefreshAfter();
  return useMutation({ mutationFn: (body: RatingForm) => rateSale(auctionId, body), onSuccess: refresh });
}

export function useReplyToRating(ratingId: number) {
  const refresh = useRefreshAfter();
  return useMutation({ mutationFn: (content: string) => replyToRating(ratingId, content), onSuccess: refresh });
}
