import type { RequestHandler } from 'express';
import session from 'express-session';
import type { SessionsRepository } from '../features/accounts/sessions.repository';
import { settle, type MaybeAsync } from '../lib/maybe-async';

/** The session cookie's name (design.md). */
export const SESSION_COOKIE = 'sessionid';
const HAS_SESSION_COOKIE = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=`);

/**
 * `sessionMiddleware` only for a request that carries a session cookie (the sockets' handshakes, issue 30): a
 * visitor's socket is anonymous either way, and express-session would build a throwaway session for it (a
 * random id, objects, a hash) on every connect, as it did for anonymous API reads (docs/performance.md, B3).
 */
export function sessionIfCookie(sessionMiddleware: RequestHandler): RequestHandler {
  return (req, res, next) => (HAS_SESSION_COOKIE.test(req.headers.cookie ?? '') ? sessionMiddleware(req, res, next) : next());
}
const DEFAULT_TTL_MS = 14 * 24 * 3600 * 1000;
/** touch() writes only when the stored expiry is more than this much older than the new one. */
const TOUCH_SLACK_MS = 60_000;
/** Where get() leaves the stored expiry on the session's cookie (a plain key: express-session copies those). */
const STORED_EXPIRES = 'storedExpiresMs';
type StoredCookie = { [STORED_EXPIRES]?: number };

/**
 * A persistent express-session store on the app's database (sessions survive restarts, and on PostgreSQL
 * every node sees every session). Synchronous on SQLite, like its repository.
 */
export class SqliteSessionStore extends session.Store {
  private pruneTimer?: NodeJS.Timeout;

  constructor(private readonly repo: SessionsRepository) {
    super();
  }

  /** Deletes expired sessions now and then every `intervalMs`. */
  startPruning(intervalMs = 15 * 60 * 1000): void {
    this.prune();
    this.pruneTimer = setInterval(() => this.prune(), intervalMs);
    this.pruneTimer.unref();
  }

  stopPruning(): void {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
  }

  /** Harmless when several nodes prune at once: each deletes what is expired, the others find nothing. */
  prune(): void {
    settle(() => this.repo.deleteExpiredSessions(Date.now()), () => undefined);
  }

  private expiry(sess: session.SessionData): number {
    const exp = sess.cookie?.expires ? new Date(sess.cookie.expires).getTime() : Date.now() + DEFAULT_TTL_MS;
    return Number.isFinite(exp) ? exp : Date.now() + DEFAULT_TTL_MS;
  }

  override get(sid: string, cb: (err: unknown, session?: session.SessionData | null) => void): void {
    settle(
      () => this.repo.findSession(sid, Date.now()),
      (err, row) => {
        if (err) return cb(err);
        if (!row) return cb(null, null);
        let data: session.SessionData;
        try {
          data = JSON.parse(row.sess) as session.SessionData;
        } catch (parseErr) {
          return cb(parseErr);
        }
        // The stored expiry rides along for touch() below. express-session copies the cookie's own fields
        // onto its Cookie, but saves and hashes only the standard ones, so it is never written back.
        if (data.cookie) (data.cookie as StoredCookie)[STORED_EXPIRES] = row.expires;
        cb(null, data);
      },
    );
  }

  override set(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    const userId = (sess as { passport?: { user?: number } }).passport?.user ?? null;
    settle(() => this.repo.upsertSession({ sid, sess: JSON.stringify(sess), expires: this.expiry(sess), userId }), (err) => cb?.(err ?? undefined));
  }

  override destroy(sid: string, cb?: (err?: unknown) => void): void {
    settle(() => this.repo.deleteSession(sid), (err) => cb?.(err ?? undefined));
  }

  override touch(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    const expires = this.expiry(sess);
    // Read fresh by get() in this same request: skip the statement when it would change nothing.
    const stored = (sess.cookie as StoredCookie | undefined)?.[STORED_EXPIRES];
    if (typeof stored === 'number' && stored >= expires - TOUCH_SLACK_MS) return cb?.();
    // Every request touches its session: write only when the stored expiry is over a minute old, so a
    // busy user's requests are reads, not WAL commits (docs/performance.md, B1).
    settle(() => this.repo.extendSession(sid, expires, expires - TOUCH_SLACK_MS), (err) => cb?.(err ?? undefined));
  }

  /** Ends every session of a user except `exceptSid` (password change, blocking). */
  destroyUserSessions(userId: number, exceptSid = ''): MaybeAsync<number> {
    return this.repo.deleteUserSessions(userId, exceptSid);
  }
}
