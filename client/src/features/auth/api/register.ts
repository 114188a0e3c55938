import { useMutation } from '@tanstack/react-query';
import type { ApiBody } from '@shared/api';
import type { RegisterResponse } from '@shared/schemas/accounts';
import { apiFetch } from '../../../lib/api';

export type RegisterPayload = ApiBody<'POST /api/user/register/'>;

/** POST /api/user/register/ → 201 */
export const register = (payload: RegisterPayload) =>
  apiFetch<RegisterResponse>('/api/user/register/', { method: 'POST', body: payload });

export const useRegister = () => useMutation({ mutationFn: register });
