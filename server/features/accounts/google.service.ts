import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { AppContext } from '../../context';
import type { User } from '../../db/types';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import { srv } from '@shared/texts/server';
import { EMAIL_RE, NAME_MAX } from '@shared/rules/limits';
import { findUserByEmail, findUserByGoogleSub, insertUser, linkGoogleSub } from './accounts.repository';
import { revokeEmailTokens } from './email-tokens';
import { isUniqueViolation } from '../../db/dialect';
import { userChanged } from '../../events';

/** What we take from Google (ID token claims or the userinfo answer). */
export interface GoogleIdentity {
  sub: string;
  email: string;
  emailVerified: boolean;
  name?: string;
}

export interface GoogleSignIn {
  user: User;
  isNewUser: boolean;
}

const GOOGLE_ISSUER = 'https://accounts.google.com';

/** Issuers accepted: the configured one, plus Google's schemeless form when it is Google. */
export function acceptedIssuers(issuer: string): string[] {
  return issuer === GOOGLE_ISSUER ? [GOOGLE_ISSUER, 'accounts.google.com'] : [issuer];
}

/** Verifies Google ID tokens: signature against the published keys (cached by jose), iss, aud, exp. */
export function createIdTokenVerifier(ctx: AppContext): (idToken: string) => Promise<GoogleIdentity> {
  let jwks: JWTVerifyGetKey | undefined;
  return async (idToken) => {
    const { clientId, jwksUrl, issuer } = ctx.config.google;
    if (!clientId) throw new AppError(503, 'google_not_configured', srv.googleNotConfigured);
    jwks ??= createRemoteJWKSet(new URL(jwksUrl));
    let payload;
    try {
      ({ payload } = await jwtVerify(idToken, jwks, {
        issuer: acceptedIssuers(issuer),
        audience: clientId,
        algorithms: ['RS256'],
        requiredClaims: ['sub', 'exp', 'iat'],
        clockTolerance: 30,
      }));
    } catch (err) {
      ctx.logger.info({ reason: (err as Error).name }, 'google id token refused');
      throw new AppError(401, 'google_invalid_token', srv.googleFailed);
    }
    const identity = toIdentity({
      sub: payload.sub,
      email: payload.email,
      email_verified: payload.email_verified,
      name: payload.name,
    });
    if (!identity) throw new AppError(401, 'google_invalid_token', srv.googleFailed);
    return identity;
  };
}

/** Normalises claims (ID token or userinfo); null when sub or e-mail is missing or malformed. */
export function toIdentity(claims: { sub?: unknown; email?: unknown; email_verified?: unknown; name?: unknown }): GoogleIdentity | null {
  if (typeof claims.sub !== 'string' || !claims.sub || claims.sub.length > 255) return null;
  if (typeof claims.email !== 'string') return null;
  const email = claims.email.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_RE.test(email)) return null;
  // Google sends a boolean; some providers send the string "true".
  const emailVerified = claims.email_verified === true || claims.email_verified === 'true';
  const name = typeof claims.name === 'string' ? claims.name.trim().slice(0, NAME_MAX) : undefined;
  return { sub: claims.sub, email, emailVerified, name: name || undefined };
}

/**
 * Finds, links or creates the account for a Google identity (both sign-in flows use this).
 *
 * - Known google_sub: that account.
 * - Same e-mail, verified account: linked (the owner proved the address before, Google proves it now).
 * - Same e-mail, UNVERIFIED account: nobody ever proved owning that address, so it may be an attacker's
 *   pre-registration (pre-account-takeover). Its password, name, phone and city are discarded and the
 *   account becomes a fresh Google account (is_new_user, so the client sends the user to /profil).
 * - Otherwise: a new verified account without a password.
 * Blocked accounts are refused (403) and never modified.
 */
export async function signInWithGoogle(ctx: AppContext, id: GoogleIdentity, attempt = 1): Promise<GoogleSignIn> {
  if (!id.emailVerified) throw new AppError(401, 'google_email_not_verified', srv.googleEmailNotVerified);
  const now = isoAt(Date.now());

  const bySub = await findUserByGoogleSub(ctx.db, id.sub);
  if (bySub) return { user: assertNotBlocked(bySub), isNewUser: false };

  const byEmail = await findUserByEmail(ctx.db, id.email);
  if (byEmail) {
    const linked = await linkByEmail(ctx, id, byEmail, now);
    if (linked) return linked;
    // The account changed between the read and the link (another sign-in linked it, it was verified or
    // blocked): decide again on what it is now; a second change in a row is not worth a third look.
    if (attempt > 1) throw new AppError(409, 'google_other_account', srv.googleOtherAccount);
    return signInWithGoogle(ctx, id, attempt + 1);
  }

  try {
    const user = await insertUser(ctx.db, {
      first_name: id.name ?? defaultName(id.email),
      email: id.email,
      phone_number: '',
      city: '',
      password_hash: null,
      google_sub: id.sub,
      verified_at: now,
      is_admin: ctx.config.adminEmails.includes(id.email) ? 1 : 0,
      blocked_at: null,
      created_at: now,
    });
    return { user, isNewUser: true };
  } catch (err) {
    // A concurrent sign-in with the same identity created it first: use that one.
    if (isUniqueViolation(err)) {
      const again = await findUserByGoogleSub(ctx.db, id.sub);
      if (again) return { user: assertNotBlocked(again), isNewUser: false };
    }
    throw err;
  }
}

/** The same Google identity linked to another account meanwhile (unique google_sub) counts as a change too. */
async function link(ctx: AppContext, userId: number, verified: boolean, patch: Parameters<typeof linkGoogleSub>[3]): Promise<boolean> {
  const linked = await linkGoogleSub(ctx.db, userId, verified, patch).catch((err: unknown) => {
    if (isUniqueViolation(err)) return false;
    throw err;
  });
  if (linked) await ctx.events.publish(userChanged(userId));
  return linked;
}

/** Links (or, when unverified, takes over) the account with the identity's e-mail; null when it changed meanwhile. */
async function linkByEmail(ctx: AppContext, id: GoogleIdentity, byEmail: User, now: string): Promise<GoogleSignIn | null> {
  assertNotBlocked(byEmail);
  if (byEmail.google_sub && byEmail.google_sub !== id.sub) {
    throw new AppError(409, 'google_other_account', srv.googleOtherAccount);
  }
  if (byEmail.verified_at) {
    if (!(await link(ctx, byEmail.id, true, { google_sub: id.sub }))) return null;
    return { user: { ...byEmail, google_sub: id.sub }, isNewUser: false };
  }
  const takeover = {
    google_sub: id.sub,
    password_hash: null,
    verified_at: now,
    first_name: id.name ?? defaultName(id.email),
    phone_number: '',
    city: '',
  };
  if (!(await link(ctx, byEmail.id, false, takeover))) return null;
  await revokeEmailTokens(ctx.db, byEmail.id, 'verify');
  await revokeEmailTokens(ctx.db, byEmail.id, 'reset');
  await ctx.sessions.destroyUserSessions(byEmail.id);
  ctx.logger.info({ userId: byEmail.id }, 'unverified password account taken over by its Google owner');
  return { user: { ...byEmail, ...takeover }, isNewUser: true };
}

function assertNotBlocked(user: User): User {
  if (user.blocked_at) throw new AppError(403, 'blocked', srv.blocked);
  return user;
}

function defaultName(email: string): string {
  return email.split('@')[0]!.slice(0, NAME_MAX);
}
