import crypto from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Passport } from 'passport';
import type session from 'express-session';
// passport's own req.login/logIn/logout/logOut/isAuthenticated/isUnauthenticated, as its authenticate() attaches them.
import requestExt from 'passport/lib/http/request.js';
import { SESSION_COOKIE, type SqliteSessionStore } from './session-store';

type Authenticator = InstanceType<typeof Passport>;
type SessionData = session.SessionData & { csrfToken?: unknown; passport?: { user?: unknown } };

/** Signed cookie values already verified (value → sid), at most this many. */
const MAX_VERIFIED = 10_000;
/**
 * The routes that never change the session (no login, logout, token or field written), by method: the bids, and
 * the reads a bidder repeats on an auction's page (its detail, its history, the own maximum).
 */
const SESSION_READ_ONLY: Readonly<Record<string, RegExp>> = {
  POST: /^\/(?:bids\/|auctions\/\d+\/buy-now\/)$/,
  PUT: /^\/auctions\/\d+\/auto-bid\/$/,
  GET: /^\/(?:auction\/\d+\/|bids\/\d+\/|auctions\/\d+\/auto-bid\/)$/,
};
const readsSessionOnly = (req: Request) => SESSION_READ_ONLY[req.method]?.test(req.path) === true;

/** Serves the request's session and user, or hands it to `slow` (express-session, then passport.session()). */
export type SessionFastPath = (req: Request, res: Response, next: NextFunction, slow: RequestHandler) => void;

interface FastPathDeps {
  store: SqliteSessionStore;
  secret: string;
  passport: Authenticator;
}

/**
 * express-session + passport.session() for the requests that only read the session (the bid routes, B1: ~95 % of
 * their answers are refusals, and a bidder's re-reads of the auction, B1auto and B1r; docs/performance.md, "B1 — the session fast path"), with the same outcome:
 * `req.sessionID`, `req.sessionStore`, `req.session` (express-session's Session and Cookie, built by the store's
 * createSession), the stored expiry renewed through the store's touch() as express-session does on every
 * request, `req.user` from passport's deserializer, and passport's request methods (on the app's request
 * prototype: installPassportRequest). What it skips: the cookie's HMAC for a signed value already verified (the
 * same value always gives the same sid), hashing the session at the start and the end of the request to notice a
 * change, wrapping res.end and writeHead, and passport's strategy object per request. It serves only a signed cookie of a stored session holding a user (found, not blocked) and a
 * CSRF token: every other case (no or bad signature, no session, a visitor's session, a dropped user, any error)
 * goes through `slow` (express-session and passport themselves) from the start, untouched.
 */
export function sessionFastPath(deps: FastPathDeps): SessionFastPath {
  const verified = new Map<string, string>();
  const sidOf = (raw: unknown): string | undefined => {
    if (typeof raw !== 'string' || !raw.startsWith('s:')) return undefined;
    const known = verified.get(raw);
    if (known !== undefined) return known;
    const sid = unsign(raw.slice(2), deps.secret);
    if (sid === undefined) return undefined;
    if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
    verified.set(raw, sid);
    return sid;
  };

  return (req: Request, res: Response, next: NextFunction, slow: RequestHandler): void => {
    const sid = readsSessionOnly(req) ? sidOf(req.cookies?.[SESSION_COOKIE]) : undefined;
    if (sid === undefined) return void slow(req, res, next);
    deps.store.get(sid, (err, stored) => {
      const data = stored as SessionData | null | undefined;
      const uid = data?.passport?.user;
      if (err || !data?.cookie || typeof data.csrfToken !== 'string' || (!uid && uid !== 0)) return void slow(req, res, next);
      deps.passport.deserializeUser(uid, req, (userErr: unknown, user?: Express.User | false) => {
        if (userErr || !user) return void slow(req, res, next);
        serve(req, sid, data, user, deps, (touchErr) => (touchErr ? retreat(req, res, next, slow) : next()));
      });
    });
  };
}

/** What express-session's inflate() and passport's session strategy leave on the request, and the touch. */
function serve(req: Request, sid: string, data: SessionData, user: Express.User, deps: FastPathDeps, done: (err?: unknown) => void): void {
  // express-session gave the store its generate() when the middleware was made (app.ts), before any request.
  req.sessionStore = deps.store as unknown as Request['sessionStore'];
  req.sessionID = sid;
  deps.store.createSession(req, data);
  req.user = user;
  req.session.touch();
  deps.store.touch(sid, req.session, (err?: unknown) => done(err));
}

/**
 * passport's request methods and session manager, as its authenticate() sets them on every request it sees, set
 * once on the app's request prototype (`app.request`): the same functions behind `req.login` and the rest for a
 * request the fast path served, without six property writes per request (~4 % of a refused bid's CPU).
 */
export function installPassportRequest(proto: object, passport: Authenticator): void {
  Object.assign(proto, {
    login: requestExt.logIn,
    logIn: requestExt.logIn,
    logout: requestExt.logOut,
    logOut: requestExt.logOut,
    isAuthenticated: requestExt.isAuthenticated,
    isUnauthenticated: requestExt.isUnauthenticated,
    _sessionManager: (passport as unknown as { _sm: unknown })._sm,
  });
}

/** A touch that failed: undo, and let express-session and passport answer as they would have. */
function retreat(req: Request, res: Response, next: NextFunction, slow: RequestHandler): void {
  const r = req as unknown as Record<string, unknown>;
  for (const key of ['session', 'sessionID', 'sessionStore', 'user']) delete r[key];
  slow(req, res, next);
}

/**
 * cookie-signature's unsign (express-session's format `s:<sid>.<base64 HMAC-SHA256 without padding>`): the sid, or
 * undefined when the signature does not match.
 */
export function unsign(signed: string, secret: string): string | undefined {
  const dot = signed.lastIndexOf('.');
  if (dot < 0) return undefined;
  const sid = signed.slice(0, dot);
  const mac = crypto.createHmac('sha256', secret).update(sid).digest('base64').replace(/=+$/, '');
  const expected = Buffer.from(mac);
  const sent = Buffer.from(signed.slice(dot + 1));
  return expected.length === sent.length && crypto.timingSafeEqual(expected, sent) ? sid : undefined;
}
