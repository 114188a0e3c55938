import type { SessionsRepository } from '../features/accounts/sessions.repository';
import type { MaybeAsync } from '../lib/maybe-async';

/**
 * Is the socket's login still valid: the session row exists, is not expired, still belongs to `userId`,
 * and that user exists and is not blocked?
 *
 * Synchronous on SQLite (better-sqlite3, like the session store itself): dropUser() re-checks a user's
 * sockets in the same tick as the logout, so no user event can slip through in between. That is why these
 * checks use the sessions repository's prepared statements, not an awaited kysely query. On PostgreSQL no
 * query can answer synchronously: the check returns a promise and a socket is demoted when it settles; the
 * publish that follows a logout or a block is ordered after the write that ended the session, so the
 * window is the one round trip of the check.
 */
export function createSessionCheck(sessions: SessionsRepository) {
  return {
    /** At the handshake: the session was just loaded; only the user's state needs checking. */
    userActive(userId: number): MaybeAsync<boolean> {
      return sessions.isUserActive(userId);
    },
    sessionValid(sessionId: string | null, userId: number): MaybeAsync<boolean> {
      if (!sessionId) return false;
      return sessions.isSessionActive(sessionId, Date.now(), userId);
    },
  };
}
export type SessionCheck = ReturnType<typeof createSessionCheck>;
