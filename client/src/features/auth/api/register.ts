import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export interface RegisterPayload {
  first_name: string;
  email: string;
  phone_number: string;
  password: string;
}

/** POST /api/user/register/ → 201 */
export const register = (payload: RegisterPayload) =>
  apiFetch<{ detail?: string; email?: string }>('/api/user/register/', { method: 'POST', body: payload });

export const useRegister = () => useMutation({ mutationFn: register });
