import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const currentUserKey = ['auth', 'me'] as const;

/** GET /api/current_user_data/ */
export const fetchCurrentUser = () => api('GET /api/current_user_data/');

export const currentUserQuery = (enabled = true) =>
  queryOptions({ queryKey: currentUserKey, queryFn: fetchCurrentUser, enabled, staleTime: 60_000 });

