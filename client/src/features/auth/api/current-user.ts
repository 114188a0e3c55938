import { queryOptions } from '@tanstack/react-query';
import type { CurrentUserData } from '@shared/schemas/accounts';
import { apiFetch } from '../../../lib/api';

export const currentUserKey = ['auth', 'me'] as const;

/** GET /api/current_user_data/ */
export const fetchCurrentUser = () => apiFetch<CurrentUserData>('/api/current_user_data/');

export const currentUserQuery = (enabled = true) =>
  queryOptions({ queryKey: currentUserKey, queryFn: fetchCurrentUser, enabled, staleTime: 60_000 });

