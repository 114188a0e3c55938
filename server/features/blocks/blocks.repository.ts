/** The member block list ("crna lista", issue 24): all its SQL. The bid path's check is in bids.repository.ts. */
import type { DbOrTx } from '../../db/types';
import { isPostgres } from '../../db/dialect';

/**
 * Locks the blocking member's user row until the transaction ends (PostgreSQL; SQLite's one writer already
 * serialises), so two blocks at once cannot both pass the 500 limit.
 */
export async function lockBlocker(tx: DbOrTx, blockerId: number): Promise<void> {
  if (isPostgres(tx)) await tx.selectFrom('users').select('id').where('id', '=', blockerId).forUpdate().execute();
}

/** The member's id and name; undefined for an unknown id. */
export function findUserRef(db: DbOrTx, id: number) {
  return db.selectFrom('users').select(['id', 'first_name']).where('id', '=', id).executeTakeFirst();
}

export type BlockRow = { id: number; first_name: string; blocked_at: string };

function blocksOf(db: DbOrTx, blockerId: number) {
  return db
    .selectFrom('member_blocks as b')
    .innerJoin('users as u', 'u.id', 'b.blocked_id')
    .select(['u.id', 'u.first_name', 'b.created_at as blocked_at'])
    .where('b.blocker_id', '=', blockerId);
}

/** `blockerId`'s block of `blockedId` with the blocked member's name, if there is one. */
export function findBlock(db: DbOrTx, blockerId: number, blockedId: number): Promise<BlockRow | undefined> {
  return blocksOf(db, blockerId).where('b.blocked_id', '=', blockedId).executeTakeFirst();
}

/** Which of `ids` `blockerId` has blocked (one statement for a page of members). */
export async function blockedAmong(db: DbOrTx, blockerId: number, ids: readonly number[]): Promise<Set<number>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Set();
  const rows = await db.selectFrom('member_blocks').select('blocked_id').where('blocker_id', '=', blockerId).where('blocked_id', 'in', wanted).execute();
  return new Set(rows.map((r) => r.blocked_id));
}

/** One page of the member's block list, newest first. */
export function listBlocks(db: DbOrTx, blockerId: number, limit: number, offset: number): Promise<BlockRow[]> {
  return blocksOf(db, blockerId).orderBy('b.created_at', 'desc').orderBy('b.blocked_id', 'desc').limit(limit).offset(offset).execute();
}

/** How many members the member has blocked. */
export async function countBlocks(db: DbOrTx, blockerId: number): Promise<number> {
  const row = await db
    .selectFrom('member_blocks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('blocker_id', '=', blockerId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Stores the block; false when it already existed (a concurrent request's insert included). */
export async function insertBlock(db: DbOrTx, blockerId: number, blockedId: number, now: string): Promise<boolean> {
  const row = await db
    .insertInto('member_blocks')
    .values({ blocker_id: blockerId, blocked_id: blockedId, created_at: now })
    .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
    .returning('blocked_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Ends the block; nothing happens when there was none. */
export async function deleteBlock(db: DbOrTx, blockerId: number, blockedId: number): Promise<void> {
  await db.deleteFrom('member_blocks').where('blocker_id', '=', blockerId).where('blocked_id', '=', blockedId).execute();
}

/**
 * The blocked member's active maxima on the blocker's open auctions are spent now (no further automatic bid;
 * the rows already bid stay). Blocking is rare, so the scan of auto_bids by bidder needs no index of its own.
 */
export async function spendMaximaOnAuctionsOf(db: DbOrTx, sellerId: number, bidderId: number, now: string): Promise<number> {
  const r = await db
    .updateTable('auto_bids')
    .set({ active: 0, beaten_at: now })
    .where('bidder_id', '=', bidderId)
    .where('active', '=', 1)
    .where('auction_id', 'in', (eb) => eb.selectFrom('auctions').select('id').where('seller_id', '=', sellerId).where('status', '=', 'active'))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
