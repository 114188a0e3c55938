import type { Request, RequestHandler } from 'express';
import type { User as DbUser } from '../db/types';
import { AppError } from './errors';
import { srv } from '@shared/texts/server';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends DbUser {}
  }
}

/** The logged-in user or a 403 (the spec's client redirects to /login on 403). */
export function currentUser(req: Request): DbUser {
  if (!req.user) throw AppError.notAuthenticated();
  return req.user;
}

export const requireAuth: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(AppError.notAuthenticated());
  next();
};

/** Logged in, verified and not blocked: who may bid, comment and sell. */
export const requireActiveUser: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(AppError.notAuthenticated());
  if (req.user.blocked_at) return next(AppError.forbidden(srv.blocked));
  if (!req.user.verified_at) return next(AppError.forbidden(srv.notVerifiedApi));
  next();
};

export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(AppError.notAuthenticated());
  if (!req.user.is_admin) return next(AppError.forbidden());
  next();
};
