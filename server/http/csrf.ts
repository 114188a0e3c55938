import crypto from 'node:crypto';
import type { CookieOptions, NextFunction, Request, RequestHandler, Response } from 'express';
import { csrfSync } from 'csrf-sync';
import { AppError } from './errors';
import { SESSION_COOKIE } from './session-store';
import { srv } from '@shared/texts/server';
import type { ApiOutput } from '@shared/api';

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface Csrf {
  /**
   * Sets the JS-readable `csrftoken` cookie: the session's token where a session exists, a signed visitor token
   * on a visitor's read that lacks a valid one.
   */
  ensureCookie: RequestHandler;
  /** 403 JSON for any state-changing request without a matching X-CSRFToken or from a foreign Origin. */
  protect: RequestHandler;
  /** A fresh token after login (the session was regenerated). */
  renew(req: Request, res: Parameters<RequestHandler>[1]): string;
  /** A fresh visitor token in the cookie (after logout: the session and its token are gone). */
  issueVisitorToken(res: Response): string;
  /** GET /api/csrf/ */
  tokenRoute: RequestHandler;
}

/**
 * Synchronizer-token CSRF (csrf-sync) with the contract's cookie + header names, and signed visitor tokens for
 * clients that never ask GET /api/csrf/ (docs/security.md, "Which CSRF token is accepted when").
 */
export function createCsrf(opts: { secure: boolean; allowedOrigins: string[]; secret: string }): Csrf {
  const { generateToken, getTokenFromState } = csrfSync({
    getTokenFromRequest: (req) => {
      const h = req.headers[CSRF_HEADER];
      return Array.isArray(h) ? h[0] : h;
    },
  });
  const cookieOptions: CookieOptions = { httpOnly: false, sameSite: 'lax', secure: opts.secure, path: '/' };
  const allowed = new Set(opts.allowedOrigins);
  const visitor = visitorTokens(opts.secret);

  const setCookie = (req: Request, res: Parameters<RequestHandler>[1], token: string) => {
    if (req.cookies?.[CSRF_COOKIE] !== token) res.cookie(CSRF_COOKIE, token, cookieOptions);
  };

  /**
   * The session's token in the cookie; a new one only once the session holding it is stored. express-session
   * would store it when the answer ends, but on a failed write it still sends the answer (the error goes to
   * next() after the headers): the client would hold a token no stored session knows, and its next write
   * would be refused 403 csrf. On PostgreSQL the write can fail (a pool that cannot open a connection); the
   * request then fails (500) without a token (docs/performance.md, "The 403 csrf after GET /api/csrf/").
   */
  const withStoredToken = (req: Request, res: Response, next: NextFunction, then: (token: string) => void) => {
    const existing = getTokenFromState(req);
    if (existing) {
      setCookie(req, res, existing);
      return then(existing);
    }
    const token = generateToken(req);
    req.session.save((err) => {
      if (err) return next(err);
      setCookie(req, res, token);
      then(token);
    });
  };

  return {
    ensureCookie(req, res, next) {
      if (req.session) {
        if (req.cookies?.[SESSION_COOKIE] || getTokenFromState(req)) return withStoredToken(req, res, next, () => next());
        return next();
      }
      // A visitor's read (no session cookie: a first visit, a crawler, a list read; the app skips the session
      // middleware for those) gets a signed visitor token, not a session: storing one would be a database write
      // and a 14-day row for every anonymous read (docs/performance.md, B3). Clients that never call
      // GET /api/csrf/ send this cookie back as the header.
      if (!visitor.verify(req.cookies?.[CSRF_COOKIE])) res.cookie(CSRF_COOKIE, visitor.issue(), cookieOptions);
      next();
    },
    protect(req, _res, next) {
      if (!UNSAFE.has(req.method)) return next();
      const origin = req.headers.origin;
      if (origin && origin !== 'null' && !allowed.has(origin.replace(/\/$/, ''))) {
        return next(new AppError(403, 'csrf_origin', srv.csrf));
      }
      const expected = (req.session && getTokenFromState(req)) || undefined;
      if (!tokenAccepted(req, expected, visitor)) return next(new AppError(403, 'csrf', srv.csrf));
      next();
    },
    renew(req, res) {
      const token = generateToken(req, true);
      res.cookie(CSRF_COOKIE, token, cookieOptions);
      return token;
    },
    issueVisitorToken(res) {
      const token = visitor.issue();
      res.cookie(CSRF_COOKIE, token, cookieOptions);
      return token;
    },
    tokenRoute(req, res, next) {
      withStoredToken(req, res, next, (token) => void res.json({ csrftoken: token } satisfies ApiOutput<'GET /api/csrf/'>));
    },
  };
}

/**
 * A session that holds a token accepts only that token (synchronizer pattern), never a visitor's. Without one,
 * a visitor token: sent as the header and as the cookie, and signed by this server.
 */
function tokenAccepted(req: Request, expected: string | undefined, visitor: VisitorTokens): boolean {
  const sent = req.headers[CSRF_HEADER];
  const token = Array.isArray(sent) ? sent[0] : sent;
  if (!token) return false;
  if (expected) return timingSafeEqualStr(expected, token);
  return req.cookies?.[CSRF_COOKIE] === token && visitor.verify(token);
}

const VISITOR_PREFIX = 'v1.';
type VisitorTokens = ReturnType<typeof visitorTokens>;

/**
 * Visitor tokens: `v1.<random>.<HMAC-SHA256 of the random part under the session secret>`, all base64url. Only
 * this server can make one, so a value planted in the cookie by anyone else is refused; a cross-site page can
 * neither read the cookie nor send the header.
 */
function visitorTokens(secret: string) {
  const key = crypto.createHash('sha256').update(`aukcije csrf visitor token\0${secret}`).digest();
  const mac = (nonce: string) => crypto.createHmac('sha256', key).update(nonce).digest('base64url');
  return {
    issue(): string {
      const nonce = crypto.randomBytes(18).toString('base64url');
      return `${VISITOR_PREFIX}${nonce}.${mac(nonce)}`;
    },
    verify(token: unknown): boolean {
      if (typeof token !== 'string' || token.length > 100 || !token.startsWith(VISITOR_PREFIX)) return false;
      const dot = token.indexOf('.', VISITOR_PREFIX.length);
      if (dot < 0) return false;
      return timingSafeEqualStr(mac(token.slice(VISITOR_PREFIX.length, dot)), token.slice(dot + 1));
    },
  };
}

function timingSafeEqualStr(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
