import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminAuctionSort, AdminAuctionStatus } from '@shared/rules/admin';
import type { AuctionCard, Paged } from '@shared/schemas/auctions';
import { apiFetch } from '../../../lib/api';

export const ADMIN_PAGE_SIZE = 20;
export const adminAuctionsKey = ['admin', 'auctions'] as const;

export interface AdminAuctionsParams {
  page: number;
  q: string;
  /** '' = every status. */
  status: AdminAuctionStatus | '';
  sort: AdminAuctionSort;
}

export function adminAuctionsSearch(p: AdminAuctionsParams): string {
  const s = new URLSearchParams({ page: String(p.page), page_size: String(ADMIN_PAGE_SIZE), sort: p.sort });
  if (p.q.trim()) s.set('q', p.q.trim());
  if (p.status) s.set('status', p.status);
  return s.toString();
}

/** GET /api/all-auction-items/?page=&page_size=&sort=&q=&status= — for an admin every auction, ended ones too. */
export const fetchAdminAuctions = (p: AdminAuctionsParams, signal?: AbortSignal) =>
  apiFetch<Paged<AuctionCard>>(`/api/all-auction-items/?${adminAuctionsSearch(p)}`, { signal });

export const adminAuctionsQuery = (p: AdminAuctionsParams) =>
  queryOptions({
    queryKey: [...adminAuctionsKey, p] as const,
    queryFn: ({ signal }) => fetchAdminAuctions(p, signal),
    placeholderData: keepPreviousData,
  });

export const useAdminAuctions = (p: AdminAuctionsParams) => useQuery(adminAuctionsQuery(p));
