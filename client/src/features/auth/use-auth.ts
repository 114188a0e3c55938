import { useCallback, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { statusQuery, statusKey } from './api/status';
import type { CurrentUserData } from '@shared/schemas/accounts';
import { currentUserQuery, currentUserKey } from './api/current-user';

export type AuthStatus = 'loading' | 'anonymous' | 'authenticated';
export type AuthUser = CurrentUserData;

export interface Auth {
  status: AuthStatus;
  user: AuthUser | null;
  /** Re-reads the session (after login, logout, profile change). Resolves when both queries settled. */
  refresh(): Promise<void>;
}

/**
 * The session, from react-query keys ['auth','status'] and ['auth','me']. `authenticated` only once the
 * user's data is loaded, so guarded pages never render with a half-known user.
 */
export function useAuth(): Auth {
  const qc = useQueryClient();
  const status = useQuery(statusQuery());
  const loggedIn = status.data?.is_authenticated === true;
  const me = useQuery(currentUserQuery(loggedIn));

  const refresh = useCallback(async () => {
    await qc.invalidateQueries({ queryKey: statusKey });
    const s = await qc.fetchQuery(statusQuery());
    if (s.is_authenticated) await qc.fetchQuery({ ...currentUserQuery(), staleTime: 0 });
    else qc.setQueryData(currentUserKey, undefined);
  }, [qc]);

  return useMemo<Auth>(() => {
    if (status.isPending) return { status: 'loading', user: null, refresh };
    if (!loggedIn) return { status: 'anonymous', user: null, refresh };
    if (me.data) return { status: 'authenticated', user: me.data, refresh };
    if (me.isError) return { status: 'anonymous', user: null, refresh };
    return { status: 'loading', user: null, refresh };
  }, [status.isPending, loggedIn, me.data, me.isError, refresh]);
}

/** Forgets the session locally (after logout, or when the server says the session ended). */
export function clearAuth(qc: ReturnType<typeof useQueryClient>): void {
  // A status read in flight (started while still logged in) must not bring the user back afterwards.
  void qc.cancelQueries({ queryKey: statusKey });
  qc.setQueryData(statusKey, { is_authenticated: false, username: null });
  qc.removeQueries({ queryKey: currentUserKey });
  qc.removeQueries({ queryKey: ['notifications'] });
  // Per-user parts of auction data: the own maximum, and `watched` on every card and detail.
  qc.removeQueries({ queryKey: ['auctions', 'auto-bid'] });
  void qc.invalidateQueries({ queryKey: ['auctions'] });
}
