import type SQLite from 'better-sqlite3';

/**
 * Is the socket's login still valid: the session row exists, is not expired, still belongs to `userId`,
 * and that user exists and is not blocked?
 *
 * Synchronous on purpose (better-sqlite3, like the session store itself): dropUser() re-checks a user's
 * sockets in the same tick as the logout, so no user event can slip through in between.
 */
export function createSessionCheck(sqlite: SQLite.Database) {
  const sessionStmt = sqlite.prepare<[string, number, number], { id: number }>(
    `SELECT u.id AS id FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.sid = ? AND s.expires > ? AND s.user_id = ? AND u.blocked_at IS NULL`,
  );
  const userStmt = sqlite.prepare<[number], { id: number }>('SELECT id FROM users WHERE id = ? AND blocked_at IS NULL');
  return {
    /** At the handshake: the session was just loaded; only the user's state needs checking. */
    userActive(userId: number): boolean {
      return !!userStmt.get(userId);
    },
    sessionValid(sessionId: string | null, userId: number): boolean {
      if (!sessionId) return false;
      return !!sessionStmt.get(sessionId, Date.now(), userId);
    },
  };
}
export type SessionCheck = ReturnType<typeof createSessionCheck>;
