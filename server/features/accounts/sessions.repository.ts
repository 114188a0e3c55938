import type SQLite from 'better-sqlite3';

export interface StoredSession {
  /** The session's JSON. */
  sess: string;
  /** Expiry in ms since the epoch. */
  expires: number;
}

/**
 * The sessions table, as statements prepared once on the raw better-sqlite3 connection. Unlike the other
 * repositories this one is built on the connection rather than taking it per call: the session store runs
 * on every request (preparing per call would cost more than the query), and the socket's session check
 * must answer synchronously, which a kysely query cannot (realtime/session-check.ts says why).
 */
export function sessionsRepository(sqlite: SQLite.Database) {
  const findStmt = sqlite.prepare<[string, number], StoredSession>('SELECT sess, expires FROM sessions WHERE sid = ? AND expires > ?');
  const upsertStmt = sqlite.prepare<[string, string, number, number | null]>(
    'INSERT INTO sessions (sid, sess, expires, user_id) VALUES (?, ?, ?, ?) ON CONFLICT(sid) DO UPDATE SET sess = excluded.sess, expires = excluded.expires, user_id = excluded.user_id',
  );
  const deleteStmt = sqlite.prepare<[string]>('DELETE FROM sessions WHERE sid = ?');
  const extendStmt = sqlite.prepare<[number, string, number]>('UPDATE sessions SET expires = ? WHERE sid = ? AND expires < ?');
  const deleteByUserStmt = sqlite.prepare<[number, string]>('DELETE FROM sessions WHERE user_id = ? AND sid != ?');
  const deleteExpiredStmt = sqlite.prepare<[number]>('DELETE FROM sessions WHERE expires <= ?');
  const activeSessionStmt = sqlite.prepare<[string, number, number], { id: number }>(
    `SELECT u.id AS id FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.sid = ? AND s.expires > ? AND s.user_id = ? AND u.blocked_at IS NULL`,
  );
  const activeUserStmt = sqlite.prepare<[number], { id: number }>('SELECT id FROM users WHERE id = ? AND blocked_at IS NULL');

  return {
    /** The session if it has not expired at `nowMs`. */
    findSession(sid: string, nowMs: number): StoredSession | undefined {
      return findStmt.get(sid, nowMs);
    },
    upsertSession(row: { sid: string; sess: string; expires: number; userId: number | null }): void {
      upsertStmt.run(row.sid, row.sess, row.expires, row.userId);
    },
    deleteSession(sid: string): void {
      deleteStmt.run(sid);
    },
    /** Moves the expiry to `expires` only where the stored one is older than `storedBefore` (no write otherwise). */
    extendSession(sid: string, expires: number, storedBefore: number): void {
      extendStmt.run(expires, sid, storedBefore);
    },
    /** Deletes every session of a user but `exceptSid`; returns how many. */
    deleteUserSessions(userId: number, exceptSid: string): number {
      return deleteByUserStmt.run(userId, exceptSid).changes;
    },
    deleteExpiredSessions(nowMs: number): void {
      deleteExpiredStmt.run(nowMs);
    },
    /** Whether `sid` is unexpired at `nowMs`, belongs to `userId`, and that user exists and is not blocked. */
    isSessionActive(sid: string, nowMs: number, userId: number): boolean {
      return !!activeSessionStmt.get(sid, nowMs, userId);
    },
    /** Whether the user exists and is not blocked. */
    isUserActive(userId: number): boolean {
      return !!activeUserStmt.get(userId);
    },
  };
}
export type SessionsRepository = ReturnType<typeof sessionsRepository>;
