import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUser } from '@shared/schemas/accounts';
import type { Paged } from '@shared/schemas/auctions';
import { api, type ApiQuery } from '../../../lib/api';
import { ADMIN_PAGE_SIZE } from './admin-auctions';

export const adminUsersKey = ['admin', 'users'] as const;

export interface AdminUsersParams {
  page: number;
  /** First name or part of the e-mail; '' = everyone. */
  q: string;
}

/** The query, in the order the URL has always carried it (an empty search is left out). */
export function adminUsersSearch(p: AdminUsersParams): ApiQuery<'GET /api/admin/users/'> & { page: number } {
  return { page: p.page, page_size: ADMIN_PAGE_SIZE, q: p.q.trim() };
}

/** GET /api/admin/users/?page=&page_size=&q= → `{count, next, previous, results}`. */
export const fetchAdminUsers = (p: AdminUsersParams, signal?: AbortSignal) =>
  api('GET /api/admin/users/', { query: adminUsersSearch(p), signal });

export const adminUsersQuery = (p: AdminUsersParams) =>
  queryOptions({
    queryKey: [...adminUsersKey, p] as const,
    queryFn: ({ signal }) => fetchAdminUsers(p, signal),
    placeholderData: keepPreviousData,
  });

export const useAdminUsers = (p: AdminUsersParams) => useQuery(adminUsersQuery(p));

/** POST /api/admin/users/{id}/block/ or /unblock/ → the updated user. */
export const setBlocked = (id: number, blocked: boolean) =>
  blocked ? api('POST /api/admin/users/:id/block/', { params: { id } }) : api('POST /api/admin/users/:id/unblock/', { params: { id } });

export function useSetBlocked() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; blocked: boolean }) => setBlocked(v.id, v.blocked),
    onSuccess: (user) => {
      // The user may be on any cached page or search: update every one.
      qc.setQueriesData<Paged<AdminUser>>({ queryKey: adminUsersKey }, (page) =>
        page ? { ...page, results: page.results.map((u) => (u.id === user.id ? { ...u, is_blocked: user.is_blocked } : u)) } : page,
      );
    },
  });
}
