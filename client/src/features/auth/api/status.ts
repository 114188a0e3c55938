import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export interface SessionStatus {
  is_authenticated: boolean;
  username: string | null;
}

export const statusKey = ['auth', 'status'] as const;

/** GET /api/user/status/; throws when the server cannot tell (no answer, 5xx). */
export const readStatus = () => apiFetch<SessionStatus>('/api/user/status/');

/** GET /api/user/status/ — an error counts as "not authenticated" (spec §7). */
export async function fetchStatus(): Promise<SessionStatus> {
  try {
    return await readStatus();
  } catch {
    return { is_authenticated: false, username: null };
  }
}

export const statusQuery = () => queryOptions({ queryKey: statusKey, queryFn: fetchStatus, staleTime: 60_000 });

export const useStatus = () => useQuery(statusQuery());
