import type { DbOrTx } from '../../db/types';

export type TokenPurpose = 'verify' | 'reset';

export async function insertEmailToken(
  db: DbOrTx,
  row: { user_id: number; purpose: TokenPurpose; token_hash: string; expires_at: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('email_tokens')
    .values({ ...row, used_at: null })
    .execute();
}

/** Marks the unused token with this hash as used at `now` if it has not expired; returns its user id, or null. */
export async function useEmailToken(db: DbOrTx, tokenHash: string, purpose: TokenPurpose, now: string): Promise<number | null> {
  const row = await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** The user of the used (or revoked) token with this hash, whatever its expiry; null for unknown tokens. */
export async function findUsedTokenUserId(db: DbOrTx, tokenHash: string, purpose: TokenPurpose): Promise<number | null> {
  const row = await db
    .selectFrom('email_tokens')
    .select('user_id')
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is not', null)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Marks every unused token of that purpose for a user as used at `now`. */
export async function markUnusedTokensUsed(db: DbOrTx, userId: number, purpose: TokenPurpose, now: string): Promise<void> {
  await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}
