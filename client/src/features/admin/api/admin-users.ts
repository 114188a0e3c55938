import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUser } from '@shared/schemas/accounts';
import { apiFetch } from '../../../lib/api';

export const adminUsersKey = ['admin', 'users'] as const;

/** GET /api/admin/users/ */
export const fetchAdminUsers = () => apiFetch<AdminUser[]>('/api/admin/users/');

export const adminUsersQuery = () => queryOptions({ queryKey: adminUsersKey, queryFn: fetchAdminUsers });

export const useAdminUsers = () => useQuery(adminUsersQuery());

/** POST /api/admin/users/{id}/block/ or /unblock/ → the updated user. */
export const setBlocked = (id: number, blocked: boolean) =>
  apiFetch<AdminUser>(`/api/admin/users/${id}/${blocked ? 'block' : 'unblock'}/`, { method: 'POST' });

export function useSetBlocked() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; blocked: boolean }) => setBlocked(v.id, v.blocked),
    onSuccess: (user) => {
      qc.setQueryData<AdminUser[]>(adminUsersKey, (list) =>
        list?.map((u) => (u.id === user.id ? { ...u, is_blocked: user.is_blocked } : u)),
      );
    },
  });
}
