import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminAuctionSort, AdminAuctionStatus } from '@shared/rules/admin';
import { api, type ApiQuery } from '../../../lib/api';

export const ADMIN_PAGE_SIZE = 20;
export const adminAuctionsKey = ['admin', 'auctions'] as const;

export interface AdminAuctionsParams {
  page: number;
  q: string;
  /** '' = every status. */
  status: AdminAuctionStatus | '';
  sort: AdminAuctionSort;
}

/** The admin list's query, in the order the URL has always carried it (empty values are left out). */
export function adminAuctionsSearch(p: AdminAuctionsParams): ApiQuery<'GET /api/all-auction-items/'> & { page: number } {
  return { page: p.page, page_size: ADMIN_PAGE_SIZE, sort: p.sort, q: p.q.trim(), status: p.status };
}

/** GET /api/all-auction-items/?page=&page_size=&sort=&q=&status= — for an admin every auction, ended ones too. */
export const fetchAdminAuctions = (p: AdminAuctionsParams, signal?: AbortSignal) =>
  api('GET /api/all-auction-items/', { query: adminAuctionsSearch(p), signal });

export const adminAuctionsQuery = (p: AdminAuctionsParams) =>
  queryOptions({
    queryKey: [...adminAuctionsKey, p] as const,
    queryFn: ({ signal }) => fetchAdminAuctions(p, signal),
    placeholderData: keepPreviousData,
  });

export const useAdminAuctions = (p: AdminAuctionsParams) => useQuery(adminAuctionsQuery(p));
