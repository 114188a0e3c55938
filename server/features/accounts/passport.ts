import passport from 'passport';
import type { AppContext } from '../../context';
import { findUserById } from './accounts.repository';

/** passport keeps the user id in the session and reloads the user per request; blocked users are dropped. */
export function configurePassport(ctx: AppContext): void {
  passport.serializeUser<number>((user, done) => done(null, user.id));
  passport.deserializeUser<number>((id, done) => {
    findUserById(ctx.db, id)
      .then((user) => done(null, user && !user.blocked_at ? user : false))
      .catch((err) => done(err));
  });
}
