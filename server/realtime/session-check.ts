import type SQLite from 'better-sqlite3';
import { sessionsRepository } from '../features/accounts/sessions.repository';

/**
 * Is the socket's login still valid: the session row exists, is not expired, still belongs to `userId`,
 * and that user exists and is not blocked?
 *
 * Synchronous on purpose (better-sqlite3, like the session store itself): dropUser() re-checks a user's
 * sockets in the same tick as the logout, so no user event can slip through in between. That is why these
 * checks use the sessions repository's prepared statements, not an awaited kysely query.
 */
export function createSessionCheck(sqlite: SQLite.Database) {
  const sessions = sessionsRepository(sqlite);
  return {
    /** At the handshake: the session was just loaded; only the user's state needs checking. */
    userActive(userId: number): boolean {
      return sessions.isUserActive(userId);
    },
    sessionValid(sessionId: string | null, userId: number): boolean {
      if (!sessionId) return false;
      return sessions.isSessionActive(sessionId, Date.now(), userId);
    },
  };
}
export type SessionCheck = ReturnType<typeof createSessionCheck>;
