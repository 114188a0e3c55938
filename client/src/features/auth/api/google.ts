import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import type { LoginResponse } from './login';

export interface GoogleConfig {
  enabled: boolean;
  redirect_enabled?: boolean;
  client_id: string | null;
}

/** GET /api/auth/google/config/ — a failure counts as "not configured". */
export async function fetchGoogleConfig(): Promise<GoogleConfig> {
  try {
    return await apiFetch<GoogleConfig>('/api/auth/google/config/');
  } catch {
    return { enabled: false, client_id: null };
  }
}

export const googleConfigQuery = () =>
  queryOptions({ queryKey: ['auth', 'google-config'], queryFn: fetchGoogleConfig, staleTime: Infinity });

export const useGoogleConfig = () => useQuery(googleConfigQuery());

/** POST /api/auth/google/ {id_token} */
export const googleLogin = (idToken: string) =>
  apiFetch<LoginResponse & { is_new_user: boolean }>('/api/auth/google/', { method: 'POST', body: { id_token: idToken } });

export const useGoogleLogin = () => useMutation({ mutationFn: googleLogin });
