import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { onNotAuthenticated } from '../../lib/api';
import { reconnectSocket } from '../../lib/socket';
import { live } from '../live/live-client';
import { currentUserKey } from './api/current-user';
import { readStatus, statusKey } from './api/status';
import { clearAuth, useAuth } from './use-auth';
import type { StatusResponse as SessionStatus } from '@shared/schemas/accounts';
import { isLoggingOut, noteSessionEnd, setLoggingOut, type SessionEndReason } from './session-end';

/** How long a `session:ended` waits for requests that may be changing the session (a password change). */
const SETTLE_MAX_MS = 10_000;

/** Resolves once no mutation is in flight (or after `maxMs`). */
function mutationsSettled(qc: QueryClient, maxMs = SETTLE_MAX_MS): Promise<void> {
  if (qc.isMutating() === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, maxMs);
    const unsubscribe = qc.getMutationCache().subscribe(() => {
      if (qc.isMutating() === 0) done();
    });
  });
}

/**
 * Mounted once in the layout. When the session ends under an open page, the user is forgotten (clearAuth,
 * so the login route's guest guard does not bounce them back) and sent to /login, which says why
 * (spec §8 "403 redirects to /login"). Two signals:
 *
 * - an API answer 403 `not_authenticated` (the request carried this browser's cookies: no re-check);
 * - the socket's `session:ended`. The browser may hold a newer session than the socket's (password
 *   changed in this tab, logged in again in another one), so the status is re-read first, after any
 *   request in flight settled; still logged in → only a new handshake. Our own logout is expected.
 *
 * Either counts only while this tab believes it is logged in: an anonymous visitor is not told that a
 * session expired.
 */
export function SessionEndWatcher() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const auth = useAuth();
  const here = useRef(location.pathname + location.search);
  here.current = location.pathname + location.search;

  useEffect(() => {
    if (auth.status === 'authenticated') setLoggingOut(false);
  }, [auth.status]);

  useEffect(() => {
    const believedLoggedIn = () => qc.getQueryData<SessionStatus>(statusKey)?.is_authenticated === true;

    const end = (reason: SessionEndReason) => {
      const from = here.current;
      noteSessionEnd({ reason, from: from.startsWith('/login') ? null : from });
      // Forget the user before the guest guard of /login looks at the cache.
      clearAuth(qc);
      navigate('/login');
    };

    const offHttp = onNotAuthenticated(() => {
      if (believedLoggedIn() && !isLoggingOut()) end('ended');
    });

    const offSocket = live.onSessionEnded((reason) => {
      if (!believedLoggedIn() || isLoggingOut()) return;
      void (async () => {
        await mutationsSettled(qc);
        let status: SessionStatus;
        try {
          status = await readStatus();
        } catch {
          return; // Cannot tell now; the next API answer will.
        }
        if (!believedLoggedIn() || isLoggingOut()) return;
        if (status.is_authenticated) {
          // A newer session of this browser: rejoin the user room with it (and re-read who it is).
          void qc.invalidateQueries({ queryKey: statusKey });
          void qc.invalidateQueries({ queryKey: currentUserKey });
          reconnectSocket();
          return;
        }
        end(reason);
      })();
    });

    return () => {
      offHttp();
      offSocket();
    };
  }, [qc, navigate]);

  return null;
}

export default SessionEndWatcher;
