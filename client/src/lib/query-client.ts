import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

/** The one cache of server state. 4xx answers are not retried (they will not change by retrying). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  });
}
