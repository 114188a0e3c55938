import crypto from 'node:crypto';
import type { DbOrTx } from '../../db/types';
import { isoNow } from '../../lib/time';

export type TokenPurpose = 'verify' | 'reset';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const TOKEN_RE = /^[A-Za-z0-9_-]{20,100}$/;

/** Creates a single-use token; only its hash is stored. Returns the raw token for the link. */
export async function createEmailToken(db: DbOrTx, userId: number, purpose: TokenPurpose, ttlMs: number): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = Date.now();
  await db
    .insertInto('email_tokens')
    .values({
      user_id: userId,
      purpose,
      token_hash: sha256(token),
      expires_at: new Date(now + ttlMs).toISOString(),
      used_at: null,
      created_at: isoNow(now),
    })
    .execute();
  return token;
}

/** Marks a valid, unused, unexpired token as used and returns its user id; otherwise null. */
export async function consumeEmailToken(db: DbOrTx, token: string, purpose: TokenPurpose): Promise<number | null> {
  if (!TOKEN_RE.test(token)) return null;
  const now = isoNow();
  const row = await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', sha256(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** The user of a token that was already used (or revoked), whatever its expiry; null for unknown tokens. */
export async function findUsedTokenUser(db: DbOrTx, token: string, purpose: TokenPurpose): Promise<number | null> {
  if (!TOKEN_RE.test(token)) return null;
  const row = await db
    .selectFrom('email_tokens')
    .select('user_id')
    .where('token_hash', '=', sha256(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is not', null)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Invalidates every unused token of that purpose for a user (a new link replaces old ones). */
export async function revokeEmailTokens(db: DbOrTx, userId: number, purpose: TokenPurpose): Promise<void> {
  await db
    .updateTable('email_tokens')
    .set({ used_at: isoNow() })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}
