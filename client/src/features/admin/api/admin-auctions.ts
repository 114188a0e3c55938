import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuctionCard, Paged } from '@shared/schemas/auctions';
import { apiFetch } from '../../../lib/api';

export const ADMIN_PAGE_SIZE = 20;
export const adminAuctionsKey = ['admin', 'auctions'] as const;

/** GET /api/all-auction-items/?page=&page_size= — for an admin every auction, ended ones too. */
export const fetchAdminAuctions = (page: number) =>
  apiFetch<Paged<AuctionCard>>(`/api/all-auction-items/?page=${page}&page_size=${ADMIN_PAGE_SIZE}&sort=endDateDesc`);

export const adminAuctionsQuery = (page: number) =>
  queryOptions({
    queryKey: [...adminAuctionsKey, page],
    queryFn: () => fetchAdminAuctions(page),
    placeholderData: keepPreviousData,
  });

export const useAdminAuctions = (page: number) => useQuery(adminAuctionsQuery(page));
