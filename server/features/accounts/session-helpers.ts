import type { Request, Response } from 'express';
import type { User } from '../../db/types';
import type { AppContext } from '../../context';

/** Logs the user in on a fresh session id (passport regenerates it) and renews the CSRF token. */
export function loginSession(ctx: AppContext, req: Request, res: Response, user: User): Promise<void> {
  return new Promise((resolve, reject) => {
    req.login(user, (err) => {
      if (err) return reject(err);
      ctx.csrf.renew(req, res);
      req.session.save((saveErr) => (saveErr ? reject(saveErr) : resolve()));
    });
  });
}

/** Ends the session completely (row deleted, cookie cleared) and hands out a fresh visitor token. */
export function logoutSession(ctx: AppContext, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    req.logout({ keepSessionInfo: false }, (err) => {
      if (err) return reject(err);
      req.session.destroy((destroyErr) => {
        if (destroyErr) return reject(destroyErr);
        res.clearCookie('sessionid', { path: '/' });
        ctx.csrf.issueVisitorToken(res);
        resolve();
      });
    });
  });
}
