import { Router } from 'express';
import type { AppContext } from '../../context';
import { sessionEnded } from '../../events';
import { currentUser, requireAuth } from '../../http/auth';
import { parse } from '../../http/validate';
import type { RateLimits } from '../../http/rate-limit';
import { srv } from '@shared/texts/server';
import type { ApiOutput } from '@shared/api';
import { ChangePasswordInput, EmailOnlyInput, PasswordResetConfirmInput } from '@shared/schemas/accounts';
import { findUserById } from './accounts.repository';
import { changePassword, confirmPasswordReset, requestPasswordReset } from './passwords.service';
import { loginSession } from './session-helpers';

/** Change password (logged in) and the "zaboravljena lozinka" reset by e-mail. */
export function passwordRoutes(ctx: AppContext, limits: RateLimits): Router {
  const r = Router();

  r.post('/change-password/', requireAuth, limits.sensitive, async (req, res) => {
    const input = parse(ChangePasswordInput, req.body);
    const user = currentUser(req);
    await changePassword(ctx, user, input);
    // Everyone else holding a session of this account is out; this browser keeps going on a new id.
    await ctx.sessions.destroyUserSessions(user.id, req.sessionID);
    const fresh = await findUserById(ctx.db, user.id);
    await loginSession(ctx, req, res, fresh ?? user);
    // Sockets of the ended sessions leave user:{id} now; this tab reconnects with its new session id.
    await ctx.events.publish(sessionEnded(user.id));
    res.json({ detail: srv.passwordChanged } satisfies ApiOutput<'POST /api/change-password/'>);
  });

  r.post('/password-reset/', limits.passwordReset, async (req, res) => {
    const { email } = parse(EmailOnlyInput, req.body);
    await requestPasswordReset(ctx, email);
    res.json({ detail: srv.resetRequested } satisfies ApiOutput<'POST /api/password-reset/'>);
  });

  r.post('/password-reset/confirm/', limits.passwordResetConfirm, async (req, res) => {
    const input = parse(PasswordResetConfirmInput, req.body);
    await confirmPasswordReset(ctx, input);
    res.json({ detail: srv.passwordReset } satisfies ApiOutput<'POST /api/password-reset/confirm/'>);
  });

  return r;
}
