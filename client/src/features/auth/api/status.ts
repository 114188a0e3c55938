import { queryOptions } from '@tanstack/react-query';
import type { StatusResponse } from '@shared/schemas/accounts';
import { api } from '../../../lib/api';

export const statusKey = ['auth', 'status'] as const;

/** GET /api/user/status/; throws when the server cannot tell (no answer, 5xx). */
export const readStatus = () => api('GET /api/user/status/');

/** GET /api/user/status/ — an error counts as "not authenticated" (spec §7). */
export async function fetchStatus(): Promise<StatusResponse> {
  try {
    return await readStatus();
  } catch {
    return { is_authenticated: false, username: null };
  }
}

export const statusQuery = () => queryOptions({ queryKey: statusKey, queryFn: fetchStatus, staleTime: 60_000 });
