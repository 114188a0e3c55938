import { sql, type Insertable } from 'kysely';
import type { AuctionImagesTable, AuctionsTable, BidsTable, CommentsTable, Db, DbOrTx, UsersTable } from '../../db/types';

/**
 * Runs `fn` on one PostgreSQL connection holding the advisory lock `key`: nodes starting together take turns.
 * (SQLite has one writer and one process: callers run `fn` directly.)
 */
export async function withAdvisoryLock(db: Db, key: number, fn: (conn: Db) => Promise<void>): Promise<void> {
  await db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${key})`.execute(conn);
    try {
      await fn(conn);
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}

export async function hasAnyUser(db: DbOrTx): Promise<boolean> {
  return !!(await db.selectFrom('users').select('id').limit(1).executeTakeFirst());
}

export async function insertUser(db: DbOrTx, user: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

/** Users who may sell and bid in the demo: not admins, not blocked, in id order. */
export function listDemoUsers(db: DbOrTx) {
  return db.selectFrom('users').select(['id', 'phone_number', 'city']).where('is_admin', '=', 0).where('blocked_at', 'is', null).orderBy('id').execute();
}

export async function insertAuction(tx: DbOrTx, auction: Insertable<AuctionsTable>): Promise<number> {
  const { id } = await tx.insertInto('auctions').values(auction).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function insertBid(tx: DbOrTx, bid: Insertable<BidsTable>): Promise<void> {
  await tx.insertInto('bids').values(bid).execute();
}

export async function insertImage(tx: DbOrTx, image: Insertable<AuctionImagesTable>): Promise<void> {
  await tx.insertInto('auction_images').values(image).execute();
}

export async function insertComment(tx: DbOrTx, comment: Insertable<CommentsTable>): Promise<void> {
  await tx.insertInto('comments').values(comment).execute();
}
