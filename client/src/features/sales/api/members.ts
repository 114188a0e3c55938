import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { PAGE_SIZE } from '@shared/rules/limits';
import { api } from '../../../lib/api';
import { membersKey } from './sales';

/** GET /api/members/{id}/ : the public profile (404 for a blocked or unknown member). */
export const memberQuery = (id: number) =>
  queryOptions({ queryKey: [...membersKey, id, 'profile'] as const, queryFn: ({ signal }) => api('GET /api/members/:id/', { params: { id }, signal }) });

/** GET /api/members/{id}/ratings/?page= : the ratings the member got, newest first. */
export const memberRatingsQuery = (id: number, page: number) =>
  queryOptions({
    queryKey: [...membersKey, id, 'ratings', page] as const,
    queryFn: ({ signal }) => api('GET /api/members/:id/ratings/', { params: { id }, query: { page, page_size: PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });

/** GET /api/members/{id}/auctions/?page= : the member's open auctions as cards. */
export const memberAuctionsQuery = (id: number, page: number) =>
  queryOptions({
    queryKey: [...membersKey, id, 'auctions', page] as const,
    queryFn: ({ signal }) => api('GET /api/members/:id/auctions/', { params: { id }, query: { page, page_size: PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });

export const useMember = (id: number) => useQuery(memberQuery(id));
export const useMemberRatings = (id: number, page: number) => useQuery(memberRatingsQuery(id, page));
export const useMemberAuctions = (id: number, page: number) => useQuery(memberAuctionsQuery(id, page));
