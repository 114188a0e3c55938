import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { AppContext } from '../context';
import { AppError } from './errors';
import { srv } from '@shared/texts/server';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const passThrough: RequestHandler = (_req, _res, next) => next();

/** The client's address, IPv6 grouped by /56 as express-rate-limit recommends. */
function ipKey(req: Request): string {
  return ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}

/** The e-mail of a JSON body, normalised; anything odd counts as one bucket. */
function emailKey(req: Request): string {
  const body: unknown = req.body;
  const raw = body && typeof body === 'object' && 'email' in body ? (body as { email: unknown }).email : '';
  return typeof raw === 'string' ? raw.trim().toLowerCase().slice(0, 254) : '';
}

interface LimitOpts {
  windowMs: number;
  limit: number;
  key: (req: Request) => string;
  /** Count only failed attempts (login: a user who logs in often is never locked out). */
  onlyFailures?: boolean;
}

/** What the limiters need of the app: RATE_LIMIT, and Redis when several nodes share the counters. */
export type RateLimitDeps = Pick<AppContext, 'config' | 'redis'>;

/**
 * A counter that cannot be read (Redis away) refuses the request with 503 `unavailable`: letting it through
 * would switch the login throttle off while Redis is down, and a 500 would blame the request.
 */
function storeFailure(err: unknown): AppError {
  const refusal = new AppError(503, 'unavailable', srv.unavailable);
  refusal.cause = err;
  return refusal;
}

function limiter(deps: RateLimitDeps, opts: LimitOpts): RequestHandler {
  if (!deps.config.rateLimit) return passThrough;
  const limit = rateLimit({
    // Without Redis the counters live in this process (one node); with it every node counts in one place.
    ...(deps.redis ? { store: deps.redis.rateLimitStore() } : {}),
    windowMs: opts.windowMs,
    limit: opts.limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    skipSuccessfulRequests: !!opts.onlyFailures,
    keyGenerator: opts.key,
    // The contract's error shape with a Serbian message; Retry-After is set by the library.
    handler: (_req, _res, next) => next(new AppError(429, 'rate_limited', srv.rateLimited)),
  });
  return (req, res, next) => limit(req, res, (err?: unknown) => next(err === undefined || err instanceof AppError ? err : storeFailure(err)));
}

/** Chains several limiters into one middleware (each keeps its own counters). */
function all(...handlers: RequestHandler[]): RequestHandler {
  const active = handlers.filter((h) => h !== passThrough);
  if (!active.length) return passThrough;
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      const h = active[i++];
      if (!h) return next();
      h(req, res, step);
    };
    step();
  };
}

/**
 * A per-user (per-IP for visitors) limit on a write path, generous enough for a bidding war by hand but not
 * for a script. Mount it after the auth guard so the user is known; passes through when RATE_LIMIT=0.
 */
export function perUserLimit(deps: RateLimitDeps, name: string, windowMs: number, limit: number): RequestHandler {
  return limiter(deps, { windowMs, limit, key: (req) => `${name}:${req.user ? `u${req.user.id}` : ipKey(req)}` });
}

export interface RateLimits {
  /** Failed logins: 10 per 15 min per (IP, e-mail) — an attacker elsewhere can't lock the owner out — and 50 per IP. */
  login: RequestHandler;
  /** 10 registrations per hour per IP. */
  register: RequestHandler;
  /** Reset mails: 5 per hour per e-mail, 20 per hour per IP. */
  passwordReset: RequestHandler;
  /** Reset confirmations (token guessing): 20 per hour per IP. */
  passwordResetConfirm: RequestHandler;
  /** New verification links: 5 per hour per e-mail, 20 per hour per IP. */
  verifyResend: RequestHandler;
  /** Google sign-in and wrong old passwords: 30 per 15 min per IP. */
  sensitive: RequestHandler;
}

/** One set of limiters per app (counters in memory, or in Redis with REDIS_URL); all pass through when RATE_LIMIT=0. */
export function createRateLimits(deps: RateLimitDeps): RateLimits {
  const l = (o: LimitOpts) => limiter(deps, o);
  return {
    login: all(
      l({ windowMs: 15 * MINUTE, limit: 10, onlyFailures: true, key: (req) => `login:${ipKey(req)}:${emailKey(req)}` }),
      l({ windowMs: 15 * MINUTE, limit: 50, onlyFailures: true, key: (req) => `login-ip:${ipKey(req)}` }),
    ),
    register: l({ windowMs: HOUR, limit: 10, key: (req) => `register:${ipKey(req)}` }),
    passwordReset: all(
      l({ windowMs: HOUR, limit: 5, key: (req) => `reset:${emailKey(req)}` }),
      l({ windowMs: HOUR, limit: 20, key: (req) => `reset-ip:${ipKey(req)}` }),
    ),
    passwordResetConfirm: l({ windowMs: HOUR, limit: 20, onlyFailures: true, key: (req) => `reset-confirm:${ipKey(req)}` }),
    verifyResend: all(
      l({ windowMs: HOUR, limit: 5, key: (req) => `verify:${emailKey(req)}` }),
      l({ windowMs: HOUR, limit: 20, key: (req) => `verify-ip:${ipKey(req)}` }),
    ),
    sensitive: l({ windowMs: 15 * MINUTE, limit: 30, onlyFailures: true, key: (req) => `sensitive:${ipKey(req)}` }),
  };
}
