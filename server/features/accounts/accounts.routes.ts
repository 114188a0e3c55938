/**
 * Account endpoints (spec §7 + our additions). Links and redirects the client must know:
 *
 * - Verification mail link: `${PUBLIC_URL}/api/verify/{code}/` (48 h, single use). It redirects to
 *     /login?verified=1        the account is verified now → show a success message
 *     /login?verified=already  the link was used before and the account is verified → "already verified"
 *     /login?verified=0        unknown, replaced or expired link → error + offer a new link
 *   A new link: POST /api/verify/resend/ {email} → always 200 {detail} (never says whether the e-mail exists).
 * - Password reset mail link: `${PUBLIC_URL}/zaboravljena-lozinka/{token}` (client page; 1 h, single use).
 *   The page posts POST /api/password-reset/confirm/ {token, password} → 200 {detail} | 400 {detail} or
 *   400 {password: [msg]}. Asking for the mail: POST /api/password-reset/ {email} → always 200 {detail}.
 * - Google redirect flow (see google.routes.ts): on failure the browser lands on
 *     /login?google=failed | /login?google=blocked
 *   on success on /aukcije (or /profil for a new account). Not configured → 503 JSON (no redirect).
 */
import { Router } from 'express';
import type { AppContext } from '../../context';
import { sessionEnded } from '../../events';
import { currentUser, requireAuth } from '../../http/auth';
import { parse } from '../../http/validate';
import { createRateLimits } from '../../http/rate-limit';
import { srv } from '@shared/texts/server';
import type { ApiOutput } from '@shared/api';
import { EmailOnlyInput, LoginInput, RegisterInput, UpdateProfileInput } from '@shared/schemas/accounts';
import { authenticate, registerUser, resendVerification, updateProfile, verifyEmail } from './accounts.service';
import { presentCurrentUser, presentLogin } from './accounts.presenter';
import { loginSession, logoutSession } from './session-helpers';
import { passwordRoutes } from './passwords.routes';
import { googleRoutes } from './google.routes';

export function accountsRoutes(ctx: AppContext): Router {
  const r = Router();
  const limits = createRateLimits(ctx);

  r.post('/user/register/', limits.register, async (req, res) => {
    const input = parse(RegisterInput, req.body);
    await registerUser(ctx, input);
    res.status(201).json({ detail: srv.registered, email: input.email } satisfies ApiOutput<'POST /api/user/register/'>);
  });

  r.get('/verify/:code/', async (req, res) => {
    const result = await verifyEmail(ctx, String(req.params.code));
    res.redirect(302, `/login?verified=${result}`);
  });

  r.post('/verify/resend/', limits.verifyResend, async (req, res) => {
    const { email } = parse(EmailOnlyInput, req.body);
    await resendVerification(ctx, email);
    res.json({ detail: srv.verifyResent } satisfies ApiOutput<'POST /api/verify/resend/'>);
  });

  r.post('/login/', limits.login, async (req, res) => {
    const input = parse(LoginInput, req.body);
    const user = await authenticate(ctx, input);
    await loginSession(ctx, req, res, user);
    res.json(presentLogin(user));
  });

  r.post('/logout/', async (req, res) => {
    const userId = req.user?.id;
    await logoutSession(ctx, req, res);
    if (userId) await ctx.events.publish(sessionEnded(userId));
    res.json({ detail: srv.loggedOut } satisfies ApiOutput<'POST /api/logout/'>);
  });

  r.get('/user/status/', (req, res) => {
    res.json({ is_authenticated: !!req.user, username: req.user?.first_name ?? null } satisfies ApiOutput<'GET /api/user/status/'>);
  });

  r.get('/username/', requireAuth, (req, res) => {
    res.json({ username: currentUser(req).first_name } satisfies ApiOutput<'GET /api/username/'>);
  });

  r.get('/current_user_data/', requireAuth, (req, res) => {
    res.json(presentCurrentUser(currentUser(req)));
  });

  r.put('/update-profile/', requireAuth, async (req, res) => {
    const input = parse(UpdateProfileInput, req.body);
    const user = await updateProfile(ctx, currentUser(req), input);
    res.json({ ...presentCurrentUser(user), detail: srv.profileUpdated } satisfies ApiOutput<'PUT /api/update-profile/'>);
  });

  r.use(passwordRoutes(ctx, limits));
  r.use(googleRoutes(ctx, limits));
  return r;
}
