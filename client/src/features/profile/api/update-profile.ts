import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiBody } from '@shared/api';
import { api } from '../../../lib/api';
import { currentUserKey } from '../../auth/api/current-user';
import { statusKey } from '../../auth/api/status';

export type UpdateProfilePayload = ApiBody<'PUT /api/update-profile/'>;

/** PUT /api/update-profile/ → the updated user data. */
export const updateProfile = (payload: UpdateProfilePayload) =>
  api('PUT /api/update-profile/', { body: payload });

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
