import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUser } from '@shared/schemas/accounts';
import type { AdminUserUpdatedResponse } from '@shared/schemas/admin';
import type { Paged } from '@shared/schemas/auctions';
import { apiFetch } from '../../../lib/api';
import { ADMIN_PAGE_SIZE } from './admin-auctions';

export const adminUsersKey = ['admin', 'users'] as const;

export interface AdminUsersParams {
  page: number;
  /** First name or part of the e-mail; '' = everyone. */
  q: string;
}

export function adminUsersSearch(p: AdminUsersParams): string {
  const s = new URLSearchParams({ page: String(p.page), page_size: String(ADMIN_PAGE_SIZE) });
  if (p.q.trim()) s.set('q', p.q.trim());
  return s.toString();
}

/** GET /api/admin/users/?page=&page_size=&q= → `{count, next, previous, results}`. */
export const fetchAdminUsers = (p: AdminUsersParams, signal?: AbortSignal) =>
  apiFetch<Paged<AdminUser>>(`/api/admin/users/?${adminUsersSearch(p)}`, { signal });

export const adminUsersQuery = (p: AdminUsersParams) =>
  queryOptions({
    queryKey: [...adminUsersKey, p] as const,
    queryFn: ({ signal }) => fetchAdminUsers(p, signal),
    placeholderData: keepPreviousData,
  });

export const useAdminUsers = (p: AdminUsersParams) => useQuery(adminUsersQuery(p));

/** POST /api/admin/users/{id}/block/ or /unblock/ → the updated user. */
export const setBlocked = (id: number, blocked: boolean) =>
  apiFetch<AdminUserUpdatedResponse>(`/api/admin/users/${id}/${blocked ? 'block' : 'unblock'}/`, { method: 'POST' });

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
