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
  /** Sets the JS-readable `csrftoken` cookie whenever the response lacks the session's token. */
  ensureCookie: RequestHandler;
  /** 403 JSON for any state-changing request without a matching X-CSRFToken or from a foreign Origin. */
  protect: RequestHandler;
  /** A fresh token after login (the session was regenerated). */
  renew(req: Request, res: Parameters<RequestHandler>[1]): string;
  /** GET /api/csrf/ */
  tokenRoute: RequestHandler;
}

/** Synchronizer-token CSRF (csrf-sync) with the contract's cookie + header names. */
export function createCsrf(opts: { secure: boolean; allowedOrigins: string[] }): Csrf {
  const { generateToken, getTokenFromState } = csrfSync({
    getTokenFromRequest: (req) => {
      const h = req.headers[CSRF_HEADER];
      return Array.isArray(h) ? h[0] : h;
    },
  });
  const cookieOptions: CookieOptions = {
    httpOnly: false,
    sameSite: 'lax',
    secure: opts.secure,
    path: '/',
  };
  const allowed = new Set(opts.allowedOrigins);

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
      if (!req.session) return next();
      // A visitor without a session (no cookie at all: a first visit, a crawler, a list read) gets none
      // from here: storing a token would store a session, a database write and a 14-day row for every
      // anonymous read (docs/performance.md, B3). The client asks GET /api/csrf/ before its first write.
      if (req.cookies?.[SESSION_COOKIE] || getTokenFromState(req)) return withStoredToken(req, res, next, () => next());
      next();
    },
    protect(req, _res, next) {
      if (!UNSAFE.has(req.method)) return next();
      const origin = req.headers.origin;
      if (origin && origin !== 'null' && !allowed.has(origin.replace(/\/$/, ''))) {
        return next(new AppError(403, 'csrf_origin', srv.csrf));
      }
      const expected = req.session ? getTokenFromState(req) : undefined;
      const sent = req.headers[CSRF_HEADER];
      const token = Array.isArray(sent) ? sent[0] : sent;
      if (!expected || !token || !timingSafeEqualStr(expected, token)) {
        return next(new AppError(403, 'csrf', srv.csrf));
      }
      next();
    },
    renew(req, res) {
      const token = generateToken(req, true);
      res.cookie(CSRF_COOKIE, token, cookieOptions);
      return token;
    },
    tokenRoute(req, res, next) {
      withStoredToken(req, res, next, (token) => void res.json({ csrftoken: token } satisfies ApiOutput<'GET /api/csrf/'>));
    },
  };
}

function timingSafeEqualStr(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
