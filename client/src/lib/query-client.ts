import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

/** The session ended on the server (expiry, logout elsewhere, password changed on another device). */
const sessionEnded = (err: unknown) => err instanceof ApiError && err.status === 403 && err.body.code === 'not_authenticated';

/**
 * The one cache of server state. 4xx answers are not retried (they will not change by retrying). A
 * 'not_authenticated' answer re-checks the session, so guarded pages move to /login.
 */
export function createQueryClient(): QueryClient {
  const recheck = (err: unknown) => {
    if (sessionEnded(err)) void qc.invalidateQueries({ queryKey: ['auth', 'status'] });
  };
  const qc: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: recheck }),
    mutationCache: new MutationCache({ onError: recheck }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  });
  return qc;
}
