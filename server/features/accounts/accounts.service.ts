import type { AppContext } from '../../context';
import type { User } from '../../db/types';
import { AppError } from '../../http/errors';
import { isoNow } from '../../lib/time';
import { srv } from '@shared/texts/server';
import type { LoginInput, RegisterInput } from '@shared/schemas/accounts';
import { findUserByEmail, insertUser } from './accounts.repository';
import { createEmailToken, revokeEmailTokens } from './email-tokens';
import { hashPassword, verifyPassword } from './passwords';

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
      created_at: isoNow(),
    });
  } catch (err) {
    // Two registrations racing for one e-mail: the unique index decides.
    if (String(err).includes('UNIQUE')) throw AppError.field('email', srv.emailTaken);
    throw err;
  }
  await sendVerificationMail(ctx, user);
  return user;
}

export async function sendVerificationMail(ctx: AppContext, user: User): Promise<void> {
  await revokeEmailTokens(ctx.db, user.id, 'verify');
  const token = await createEmailToken(ctx.db, user.id, 'verify', VERIFY_TTL_MS);
  const link = `${ctx.config.publicUrl}/api/verify/${token}/`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Aukcije: potvrdite vašu email adresu',
    text:
      `Zdravo ${user.first_name},\n\n` +
      `hvala što ste se registrovali na Aukcije. Potvrdite vašu email adresu klikom na link:\n\n${link}\n\n` +
      `Link važi 48 sati. Ako se niste vi registrovali, zanemarite ovu poruku.\n\nVaše Aukcije`,
  });
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
