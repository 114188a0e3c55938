import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Config } from '../../config';
import { AppError } from '../../http/errors';
import { srv } from '@shared/texts/server';

/**
 * A per-user (per-IP for visitors) limit on a write path, generous enough for a bidding war by hand but not
 * for a script. Mounted after the auth guard so the user is known; passes through when RATE_LIMIT=0.
 */
export function perUserLimit(config: Config, name: string, windowMs: number, limit: number): RequestHandler {
  if (!config.rateLimit) return (_req, _res, next) => next();
  return rateLimit({
    windowMs,
    limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    keyGenerator: (req: Request) => `${name}:${req.user ? `u${req.user.id}` : ipKeyGenerator(req.ip ?? 'unknown')}`,
    handler: (_req, _res, next) => next(new AppError(429, 'rate_limited', srv.rateLimited)),
  });
}
