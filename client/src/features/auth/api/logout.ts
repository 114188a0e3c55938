import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { clearAuth } from '../../../app/auth';

/** POST /api/logout/ */
export const logout = () => apiFetch<{ detail?: string }>('/api/logout/', { method: 'POST' });

export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => clearAuth(qc),
  });
}
