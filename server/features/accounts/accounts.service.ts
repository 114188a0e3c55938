import type { AppContext } from '../../context';
import type { User } from '../../db/types';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import type { Mail } from '../../lib/mailer';
import { srv } from '@shared/texts/server';
import { VERIFY_RESULT, type LoginInput, type RegisterInput, type UpdateProfileInput } from '@shared/schemas/accounts';
import { findUserByEmail, findUserById, insertUser, markUserVerified, updateUser } from './accounts.repository';
import { consumeEmailToken, createEmailToken, findUsedTokenUser, revokeEmailTokens } from './email-tokens';
import { hashPassword, verifyPassword } from './passwords';
import { isUniqueViolation } from '../../db/dialect';
import { userChanged } from '../../events';
import { mailTexts } from '@shared/texts/mail';

export const VERIFY_TTL_MS = 48 * 3600 * 1000;

/** Creates an unverified account and mails the verification link. Duplicate e-mail → 400 {email}. */
export async function registerUser(ctx: AppContext, input: RegisterInput): Promise<User> {
  const existing = await findUserByEmail(ctx.db, input.email);
  if (existing) throw AppError.field('email', srv.emailTaken);
  const passwordHash = await hashPassword(input.password);
  let user: User;
  try {
    user = await insertUser(ctx.db, {
      first_name: input.first_name,
      email: input.email,
      phone_number: input.phone_number,
      city: input.city ?? '',
      password_hash: passwordHash,
      google_sub: null,
      verified_at: null,
      is_admin: ctx.config.adminEmails.includes(input.email) ? 1 : 0,
      blocked_at: null,
      created_at: isoAt(Date.now()),
    });
  } catch (err) {
    // Two registrations racing for one e-mail: the unique index decides.
    if (isUniqueViolation(err)) throw AppError.field('email', srv.emailTaken);
    throw err;
  }
  // The account exists either way; when the mail fails the user asks for a new link (POST /api/verify/resend/).
  await ctx.mailer.send(await verificationMail(ctx, user)).catch((err: unknown) => {
    ctx.logger.error({ err, userId: user.id }, 'verification e-mail could not be sent');
  });
  return user;
}

/** A fresh 48 h verification link (older ones stop working) in a Serbian mail. */
async function verificationMail(ctx: AppContext, user: User): Promise<Mail> {
  await revokeEmailTokens(ctx.db, user.id, 'verify');
  const token = await createEmailToken(ctx.db, user.id, 'verify', VERIFY_TTL_MS);
  const link = `${ctx.config.publicUrl}/api/verify/${token}/`;
  return { to: user.email, ...mailTexts.verification(user.first_name, link) };
}

/**
 * Sends without making the caller wait: answers that must not reveal whether an account exists take
 * the same time either way. Failures are logged.
 */
export function sendInBackground(ctx: AppContext, mail: Promise<Mail>): void {
  mail
    .then((m) => ctx.mailer.send(m))
    .catch((err: unknown) => ctx.logger.error({ err }, 'e-mail could not be sent'));
}

/**
 * GET /api/verify/{code}/: marks the account verified once. Returns the `verified` query value for the
 * redirect to /login (see VERIFY_RESULT).
 */
export async function verifyEmail(ctx: AppContext, code: string): Promise<string> {
  const userId = await consumeEmailToken(ctx.db, code, 'verify');
  if (userId !== null) {
    await markUserVerified(ctx.db, userId, isoAt(Date.now()));
    await ctx.events.publish(userChanged(userId));
    return VERIFY_RESULT.ok;
  }
  // Mail scanners often open links before the user does: a used link of a verified account says so.
  const usedBy = await findUsedTokenUser(ctx.db, code, 'verify');
  if (usedBy !== null) {
    const user = await findUserById(ctx.db, usedBy);
    if (user?.verified_at) return VERIFY_RESULT.already;
  }
  return VERIFY_RESULT.failed;
}

/** POST /api/verify/resend/: a new link for an unverified, unblocked account; silent otherwise. */
export async function resendVerification(ctx: AppContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user || user.verified_at || user.blocked_at || !user.password_hash) return;
  sendInBackground(ctx, verificationMail(ctx, user));
}

/**
 * Checks credentials. The password is checked before the account's state, so only someone who knows
 * the password learns that the account is unverified or blocked.
 */
export async function authenticate(ctx: AppContext, input: LoginInput): Promise<User> {
  const user = await findUserByEmail(ctx.db, input.email);
  const ok = await verifyPassword(user?.password_hash, input.password);
  if (!user || !ok) throw new AppError(401, 'invalid_credentials', srv.invalidCredentials);
  if (user.blocked_at) throw new AppError(403, 'blocked', srv.blocked);
  if (!user.verified_at) throw new AppError(403, 'not_verified', srv.notVerifiedApi);
  return user;
}

/** PUT /api/update-profile/: name, phone, city. The e-mail never changes here (another one → 400 {email}). */
export async function updateProfile(ctx: AppContext, user: User, input: UpdateProfileInput): Promise<User> {
  if (input.email !== undefined && input.email !== '' && input.email.toLowerCase() !== user.email) {
    throw AppError.field('email', srv.emailImmutable);
  }
  const patch = {
    first_name: input.first_name,
    phone_number: input.phone_number ?? user.phone_number,
    city: input.city ?? user.city,
  };
  await updateUser(ctx.db, user.id, patch);
  await ctx.events.publish(userChanged(user.id));
  return { ...user, ...patch };
}
