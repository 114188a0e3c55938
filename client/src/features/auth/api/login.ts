import { useMutation } from '@tanstack/react-query';
import type { DetailResponse, LoginResponse } from '@shared/schemas/accounts';
import { apiFetch } from '../../../lib/api';

/** POST /api/login/ */
export const login = (email: string, password: string) =>
  apiFetch<LoginResponse>('/api/login/', { method: 'POST', body: { email, password } });

/** POST /api/verify/resend/ */
export const resendVerification = (email: string) =>
  apiFetch<DetailResponse>('/api/verify/resend/', { method: 'POST', body: { email } });

export const useLogin = () => useMutation({ mutationFn: (v: { email: string; password: string }) => login(v.email, v.password) });

export const useResendVerification = () => useMutation({ mutationFn: resendVerification });
