import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export interface CurrentUser {
  id: number;
  first_name: string;
  phone_number: string;
  city: string;
  email: string;
  is_superuser: boolean;
  is_verified?: boolean;
}

export const currentUserKey = ['auth', 'me'] as const;

/** GET /api/current_user_data/ */
export const fetchCurrentUser = () => apiFetch<CurrentUser>('/api/current_user_data/');

export const currentUserQuery = (enabled = true) =>
  queryOptions({ queryKey: currentUserKey, queryFn: fetchCurrentUser, enabled, staleTime: 60_000 });

export const useCurrentUser = (enabled = true) => useQuery(currentUserQuery(enabled));
