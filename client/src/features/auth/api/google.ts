import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { GoogleConfigResponse } from '@shared/schemas/accounts';
import { api } from '../../../lib/api';

/** GET /api/auth/google/config/ — a failure counts as "not configured". */
export async function fetchGoogleConfig(): Promise<GoogleConfigResponse> {
  try {
    return await api('GET /api/auth/google/config/');
  } catch {
    return { enabled: false, redirect_enabled: false, client_id: null };
  }
}

export const googleConfigQuery = () =>
  queryOptions({ queryKey: ['auth', 'google-config'], queryFn: fetchGoogleConfig, staleTime: Infinity });

export const useGoogleConfig = () => useQuery(googleConfigQuery());

/** POST /api/auth/google/ {id_token} */
export const googleLogin = (idToken: string) =>
  api('POST /api/auth/google/', { body: { id_token: idToken } });

export const useGoogleLogin = () => useMutation({ mutationFn: googleLogin });
