import type { CookieOptions, Request, RequestHandler } from 'express';
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

  const ensureToken = (req: Request): string => {
    const existing = getTokenFromState(req);
    return existing ?? generateToken(req);
  };

  return {
    ensureCookie(req, res, next) {
      if (!req.session) return next();
      // A visitor without a session (no cookie at all: a first visit, a crawler, a list read) gets none
      // from here: storing a token would store a session, a database write and a 14-day row for every
      // anonymous read (docs/performance.md, B3). The client asks GET /api/csrf/ before its first write.
      const existing = getTokenFromState(req);
      if (existing) setCookie(req, res, existing);
      else if (req.cookies?.[SESSION_COOKIE]) setCookie(req, res, generateToken(req));
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
    tokenRoute(req, res) {
      const token = ensureToken(req);
      setCookie(req, res, token);
      res.json({ csrftoken: token } satisfies ApiOutput<'GET /api/csrf/'>);
    },
  };
}

function timingSafeEqualStr(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
