import { Passport } from 'passport';
import { Strategy as GoogleStrategy, type Profile, type StrategyOptions, type VerifyCallback } from 'passport-google-oauth20';
import type { AppContext } from '../../context';
import { AppError } from '../../http/errors';
import { srv } from '@shared/texts/server';
import type { DbOrTx, User } from '../../db/types';
import { settle, type MaybeAsync } from '../../lib/maybe-async';
import { signInWithGoogle, toIdentity, type GoogleSignIn } from './google.service';

type Authenticator = InstanceType<typeof Passport>;

const instances = new WeakMap<AppContext, Authenticator>();

/** The Passport of this app (one per createApp, so two apps in one process never share a db). */
export function passportFor(ctx: AppContext): Authenticator {
  const p = instances.get(ctx);
  if (!p) throw new Error('configurePassport(ctx) was not called');
  return p;
}

/** Whether the redirect flow (client id + secret) is configured. */
export function googleRedirectEnabled(ctx: AppContext): boolean {
  return !!(ctx.config.google.clientId && ctx.config.google.clientSecret);
}

/**
 * passport keeps the user id in the session and reloads the user per request (`findUser`: the session cache's,
 * session-cache.ts); blocked users are dropped. With GOOGLE_CLIENT_ID + SECRET the `google` strategy
 * (authorization-code flow) is registered too.
 */
export function configurePassport(ctx: AppContext, findUser: (db: DbOrTx, id: number) => MaybeAsync<User | undefined>): Authenticator {
  const passport = new Passport();
  passport.serializeUser<number>((user, done) => done(null, user.id));
  passport.deserializeUser<number>((id, done) => {
    settle(
      () => findUser(ctx.db, id),
      (err, user) => (err ? done(err) : done(null, user && !user.blocked_at ? user : false)),
    );
  });

  const g = ctx.config.google;
  if (g.clientId && g.clientSecret) {
    const options: StrategyOptions = {
      clientID: g.clientId,
      clientSecret: g.clientSecret,
      callbackURL: `${ctx.config.publicUrl}/api/auth/google/callback`,
      authorizationURL: g.authUrl,
      tokenURL: g.tokenUrl,
      userProfileURL: g.userinfoUrl,
      scope: ['openid', 'email', 'profile'],
      state: true,
      pkce: true,
    };
    const verify = (_accessToken: string, _refreshToken: string, profile: Profile, done: VerifyCallback) => {
      const identity = toIdentity(profile._json as Record<string, unknown>);
      if (!identity) return done(new AppError(401, 'google_invalid_token', srv.googleFailed));
      // The sign-in result rides where passport expects "the user"; the callback route logs it in.
      signInWithGoogle(ctx, identity).then(
        (result: GoogleSignIn) => done(null, result as unknown as Express.User),
        (err: unknown) => done(err as Error),
      );
    };
    passport.use('google', new GoogleStrategy(options, verify));
  }
  instances.set(ctx, passport);
  return passport;
}
