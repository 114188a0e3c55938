import { apiFetch } from '../../../lib/api';

export interface LoginResponse {
  detail?: string;
  redirect_url?: string;
}

/** POST /api/login/ */
export const login = (email: string, password: string) =>
  apiFetch<LoginResponse>('/api/login/', { method: 'POST', body: { email, password } });

/** POST /api/verify/resend/ */
export const resendVerification = (email: string) =>
  apiFetch<{ detail: string }>('/api/verify/resend/', { method: 'POST', body: { email } });
