import crypto from 'node:crypto';
import type { DbOrTx } from '../../db/types';
import { isoAt } from '../../lib/time';
import { findUsedTokenUserId, insertEmailToken, markUnusedTokensUsed, useEmailToken, type TokenPurpose } from './email-tokens.repository';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const TOKEN_RE = /^[A-Za-z0-9_-]{20,100}$/;

/** Creates a single-use token; only its hash is stored. Returns the raw token for the link. */
export async function createEmailToken(db: DbOrTx, userId: number, purpose: TokenPurpose, ttlMs: number): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = Date.now();
  await insertEmailToken(db, {
    user_id: userId,
    purpose,
    token_hash: sha256(token),
    expires_at: isoAt(now + ttlMs),
    created_at: isoAt(now),
  });
  return token;
}

/** Marks a valid, unused, unexpired token as used and returns its user id; otherwise null. */
export async function consumeEmailToken(db: DbOrTx, token: string, purpose: TokenPurpose): Promise<number | null> {
  if (!TOKEN_RE.test(token)) return null;
  return useEmailToken(db, sha256(token), purpose, isoAt(Date.now()));
}

/** The user of a token that was already used (or revoked), whatever its expiry; null for unknown tokens. */
export async function findUsedTokenUser(db: DbOrTx, token: string, purpose: TokenPurpose): Promise<number | null> {
  if (!TOKEN_RE.test(token)) return null;
  return findUsedTokenUserId(db, sha256(token), purpose);
}

/** Invalidates every unused token of that purpose for a user (a new link replaces old ones). */
export async function revokeEmailTokens(db: DbOrTx, userId: number, purpose: TokenPurpose): Promise<void> {
  await markUnusedTokensUsed(db, userId, purpose, isoAt(Date.now()));
}
