import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { currentUserKey } from '../../auth/api/current-user';
import { statusKey } from '../../auth/api/status';
import type { AuthUser } from '../../auth/use-auth';

export interface UpdateProfilePayload {
  first_name: string;
  phone_number: string;
  city: string;
  email: string;
}

/** PUT /api/update-profile/ → the updated user data. */
export const updateProfile = (payload: UpdateProfilePayload) =>
  apiFetch<AuthUser & { detail?: string }>('/api/update-profile/', { method: 'PUT', body: payload });

export function useUpdateProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      const { detail: _detail, ...data } = user;
      qc.setQueryData(currentUserKey, data);
      qc.setQueryData(statusKey, { is_authenticated: true, username: data.first_name });
    },
  });
}
