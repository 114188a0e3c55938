import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SaleRole } from '@shared/rules/sales';
import type { Paged } from '@shared/schemas/auctions';
import type { Rating, RatingForm, SaleItem } from '@shared/schemas/sales';
import { PAGE_SIZE } from '@shared/rules/limits';
import { api } from '../../../lib/api';
import { membersKey, salesKey } from './keys';

export { membersKey, salesKey };

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

type SalesPage = Paged<SaleItem>;

/** A cached page of sales with `patch` applied to the sales `match` picks (a page without one returned untouched). */
export function patchSale(page: SalesPage | undefined, match: (s: SaleItem) => boolean, patch: (s: SaleItem) => SaleItem): SalesPage | undefined {
  if (!page || !page.results.some(match)) return page;
  return { ...page, results: page.results.map((s) => (match(s) ? patch(s) : s)) };
}

/**
 * After a rating or an answer: the answer is written into every cached page of sales at once (no moment where
 * the 'Oceni' button comes back), then the sales pages and the profiles (scores, ratings) are read again.
 */
function useWriteBack() {
  const qc = useQueryClient();
  return (match: (s: SaleItem) => boolean, patch: (s: SaleItem) => SaleItem) => {
    qc.setQueriesData<SalesPage>({ queryKey: salesKey }, (page) => patchSale(page, match, patch));
    return Promise.all([qc.invalidateQueries({ queryKey: salesKey }), qc.invalidateQueries({ queryKey: membersKey })]);
  };
}

export function useRateSale(auctionId: number) {
  const writeBack = useWriteBack();
  return useMutation({
    mutationFn: (body: RatingForm) => rateSale(auctionId, body),
    onSuccess: (rating: Rating) => writeBack((s) => s.auction_id === auctionId, (s) => ({ ...s, my_rating: rating })),
  });
}

export function useReplyToRating(ratingId: number) {
  const writeBack = useWriteBack();
  return useMutation({
    mutationFn: (content: string) => replyToRating(ratingId, content),
    onSuccess: (rating: Rating) => writeBack((s) => s.their_rating?.id === ratingId, (s) => ({ ...s, their_rating: rating })),
  });
}
