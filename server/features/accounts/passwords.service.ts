import type { AppContext } from '../../context';
import { sessionEnded } from '../../events';
import type { User } from '../../db/types';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import type { Mail } from '../../lib/mailer';
import { srv } from '@shared/texts/server';
import type { ChangePasswordInput, PasswordResetConfirmInput } from '@shared/schemas/accounts';
import { findUserByEmail, findUserById, updateUser } from './accounts.repository';
import { consumeEmailToken, createEmailToken, revokeEmailTokens } from './email-tokens';
import { hashPassword, verifyPassword } from './passwords';
import { sendInBackground } from './accounts.service';
import { mailTexts } from '@shared/texts/mail';

export const RESET_TTL_MS = 3600 * 1000;

/**
 * POST /api/change-password/: the old password must match; the new one follows the registration policy
 * (checked by the schema). The caller ends the user's other sessions and regenerates the current one.
 */
export async function changePassword(ctx: AppContext, user: User, input: ChangePasswordInput): Promise<void> {
  if (!user.password_hash) throw AppError.field('old_password', srv.noPasswordYet);
  if (!(await verifyPassword(user.password_hash, input.old_password))) {
    throw AppError.field('old_password', srv.oldPasswordWrong);
  }
  await updateUser(ctx.db, user.id, { password_hash: await hashPassword(input.new_password) });
  await revokeEmailTokens(ctx.db, user.id, 'reset');
}

/** POST /api/password-reset/: mails a 1 h single-use link when the account exists and is not blocked. */
export async function requestPasswordReset(ctx: AppContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user || user.blocked_at) return;
  sendInBackground(ctx, resetMail(ctx, user));
}

async function resetMail(ctx: AppContext, user: User): Promise<Mail> {
  await revokeEmailTokens(ctx.db, user.id, 'reset');
  const token = await createEmailToken(ctx.db, user.id, 'reset', RESET_TTL_MS);
  const link = `${ctx.config.publicUrl}/zaboravljena-lozinka/${token}`;
  return { to: user.email, ...mailTexts.passwordReset(user.first_name, link) };
}

/**
 * POST /api/password-reset/confirm/: sets the new password and ends every session of the user. Following
 * the link proves the mailbox, so an unverified account becomes verified. Returns the user id.
 */
export async function confirmPasswordReset(ctx: AppContext, input: PasswordResetConfirmInput): Promise<number> {
  const userId = await consumeEmailToken(ctx.db, input.token, 'reset');
  const user = userId === null ? undefined : await findUserById(ctx.db, userId);
  if (!user) throw new AppError(400, 'invalid_token', srv.resetTokenInvalid);
  await updateUser(ctx.db, user.id, {
    password_hash: await hashPassword(input.password),
    verified_at: user.verified_at ?? isoAt(Date.now()),
  });
  await revokeEmailTokens(ctx.db, user.id, 'reset');
  await ctx.sessions.destroyUserSessions(user.id);
  await ctx.events.publish(sessionEnded(user.id));
  return user.id;
}
