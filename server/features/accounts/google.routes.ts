import { Router, type RequestHandler } from 'express';
import type { AppContext } from '../../context';
import { AppError } from '../../http/errors';
import { parse } from '../../http/validate';
import type { RateLimits } from '../../http/rate-limit';
import { srv } from '@shared/texts/server';
import type { ApiOutput } from '@shared/api';
import { GOOGLE_REDIRECT_ERROR, GoogleLoginInput, type GoogleConfigResponse } from '@shared/schemas/accounts';
import { createIdTokenVerifier, signInWithGoogle, type GoogleSignIn } from './google.service';
import { googleRedirectEnabled, passportFor } from './passport';
import { presentLogin } from './accounts.presenter';
import { loginSession } from './session-helpers';

/**
 * Google sign-in: POST /api/auth/google/ {id_token} (Google Identity Services button) and the
 * passport-google-oauth20 redirect flow GET /api/auth/google/start → Google → GET /api/auth/google/callback.
 * Without GOOGLE_CLIENT_ID (redirect flow: + SECRET) they answer 503 JSON.
 */
export function googleRoutes(ctx: AppContext, limits: RateLimits): Router {
  const r = Router();
  const verifyIdToken = createIdTokenVerifier(ctx);

  const requireIdTokenFlow: RequestHandler = (_req, _res, next) =>
    next(ctx.config.google.clientId ? undefined : new AppError(503, 'google_not_configured', srv.googleNotConfigured));
  const requireRedirectFlow: RequestHandler = (_req, _res, next) =>
    next(googleRedirectEnabled(ctx) ? undefined : new AppError(503, 'google_not_configured', srv.googleNotConfigured));

  r.get('/auth/google/config/', (_req, res) => {
    const body: GoogleConfigResponse = {
      enabled: !!ctx.config.google.clientId,
      redirect_enabled: googleRedirectEnabled(ctx),
      client_id: ctx.config.google.clientId ?? null,
    };
    res.json(body);
  });

  r.post('/auth/google/', requireIdTokenFlow, limits.sensitive, async (req, res) => {
    const { id_token } = parse(GoogleLoginInput, req.body);
    const identity = await verifyIdToken(id_token);
    const { user, isNewUser } = await signInWithGoogle(ctx, identity);
    await loginSession(ctx, req, res, user);
    res.json({ ...presentLogin(user), is_new_user: isNewUser } satisfies ApiOutput<'POST /api/auth/google/'>);
  });

  r.get('/auth/google/start', requireRedirectFlow, (req, res, next) => {
    // Only ever starts the flow: stray `code`/`error` parameters end on the login page, not in a 500.
    const strayParams = () => res.redirect(302, `/login?google=${GOOGLE_REDIRECT_ERROR.failed}`);
    passportFor(ctx).authenticate('google', strayParams)(req, res, next);
  });

  r.get('/auth/google/callback', requireRedirectFlow, (req, res, next) => {
    const onResult = (err: unknown, result: GoogleSignIn | false | undefined) => {
      if (err || !result) {
        if (err && !(err instanceof AppError)) ctx.logger.warn({ err: String(err) }, 'google redirect sign-in failed');
        const reason = err instanceof AppError && err.code === 'blocked' ? GOOGLE_REDIRECT_ERROR.blocked : GOOGLE_REDIRECT_ERROR.failed;
        return res.redirect(302, `/login?google=${reason}`);
      }
      loginSession(ctx, req, res, result.user).then(
        () => res.redirect(302, result.isNewUser ? '/profil' : '/aukcije'),
        next,
      );
    };
    passportFor(ctx).authenticate('google', onResult)(req, res, next);
  });

  return r;
}
