import type SQLite from 'better-sqlite3';
import type { Db } from '../../db/types';
import type { MaybeAsync } from '../../lib/maybe-async';

export interface StoredSession {
  /** The session's JSON. */
  sess: string;
  /** Expiry in ms since the epoch. */
  expires: number;
}

/**
 * The sessions table (the same on both databases). On SQLite every method answers synchronously; on
 * PostgreSQL each returns a promise. Callers handle both (lib/maybe-async.ts), so that SQLite keeps its
 * synchronous session check (realtime/session-check.ts says why it wants one).
 */
export interface SessionsRepository {
  /** The session if it has not expired at `nowMs`. */
  findSession(sid: string, nowMs: number): MaybeAsync<StoredSession | undefined>;
  upsertSession(row: { sid: string; sess: string; expires: number; userId: number | null }): MaybeAsync<void>;
  deleteSession(sid: string): MaybeAsync<void>;
  /** Moves the expiry to `expires` only where the stored one is older than `storedBefore` (no write otherwise). */
  extendSession(sid: string, expires: number, storedBefore: number): MaybeAsync<void>;
  /** Deletes every session of a user but `exceptSid`; returns how many. */
  deleteUserSessions(userId: number, exceptSid: string): MaybeAsync<number>;
  deleteExpiredSessions(nowMs: number): MaybeAsync<void>;
  /** Whether `sid` is unexpired at `nowMs`, belongs to `userId`, and that user exists and is not blocked. */
  isSessionActive(sid: string, nowMs: number, userId: number): MaybeAsync<boolean>;
  /** Whether the user exists and is not blocked. */
  isUserActive(userId: number): MaybeAsync<boolean>;
}

/**
 * SQLite: statements prepared once on the raw better-sqlite3 connection. Unlike the other repositories this
 * one is built on the connection rather than taking it per call: the session store runs on every request
 * (preparing per call would cost more than the query), and the socket's session check must answer
 * synchronously, which a kysely query cannot (realtime/session-check.ts says why).
 */
export function sessionsRepository(sqlite: SQLite.Database): SessionsRepository {
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
    findSession: (sid, nowMs) => findStmt.get(sid, nowMs),
    upsertSession(row) {
      upsertStmt.run(row.sid, row.sess, row.expires, row.userId);
    },
    deleteSession(sid) {
      deleteStmt.run(sid);
    },
    extendSession(sid, expires, storedBefore) {
      extendStmt.run(expires, sid, storedBefore);
    },
    deleteUserSessions: (userId, exceptSid) => deleteByUserStmt.run(userId, exceptSid).changes,
    deleteExpiredSessions(nowMs) {
      deleteExpiredStmt.run(nowMs);
    },
    isSessionActive: (sid, nowMs, userId) => !!activeSessionStmt.get(sid, nowMs, userId),
    isUserActive: (userId) => !!activeUserStmt.get(userId),
  };
}

/** PostgreSQL: the same statements as kysely queries over the pool. */
export function pgSessionsRepository(db: Db): SessionsRepository {
  return {
    findSession: (sid, nowMs) =>
      db.selectFrom('sessions').select(['sess', 'expires']).where('sid', '=', sid).where('expires', '>', nowMs).executeTakeFirst(),
    async upsertSession(row) {
      await db
        .insertInto('sessions')
        .values({ sid: row.sid, sess: row.sess, expires: row.expires, user_id: row.userId })
        .onConflict((oc) => oc.column('sid').doUpdateSet((eb) => ({ sess: eb.ref('excluded.sess'), expires: eb.ref('excluded.expires'), user_id: eb.ref('excluded.user_id') })))
        .execute();
    },
    async deleteSession(sid) {
      await db.deleteFrom('sessions').where('sid', '=', sid).execute();
    },
    async extendSession(sid, expires, storedBefore) {
      await db.updateTable('sessions').set({ expires }).where('sid', '=', sid).where('expires', '<', storedBefore).execute();
    },
    async deleteUserSessions(userId, exceptSid) {
      const r = await db.deleteFrom('sessions').where('user_id', '=', userId).where('sid', '!=', exceptSid).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async deleteExpiredSessions(nowMs) {
      await db.deleteFrom('sessions').where('expires', '<=', nowMs).execute();
    },
    async isSessionActive(sid, nowMs, userId) {
      const row = await db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select('u.id')
        .where('s.sid', '=', sid)
        .where('s.expires', '>', nowMs)
        .where('s.user_id', '=', userId)
        .where('u.blocked_at', 'is', null)
        .executeTakeFirst();
      return !!row;
    },
    async isUserActive(userId) {
      const row = await db.selectFrom('users').select('id').where('id', '=', userId).where('blocked_at', 'is', null).executeTakeFirst();
      return !!row;
    },
  };
}
