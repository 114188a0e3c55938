import type { DbOrTx } from '../../db/types';

/** Starts `userId`'s watch of an auction; false when it was already watched (the first start time stays). */
export async function insertWatch(db: DbOrTx, userId: number, auctionId: number, now: string): Promise<boolean> {
  const row = await db
    .insertInto('watchlist')
    .values({ user_id: userId, auction_id: auctionId, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'auction_id']).doNothing())
    .returning('auction_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Ends the watch; nothing happens when there was none. */
export async function deleteWatch(db: DbOrTx, userId: number, auctionId: number): Promise<void> {
  await db.deleteFrom('watchlist').where('user_id', '=', userId).where('auction_id', '=', auctionId).execute();
}

/** How many users watch the auction. */
export async function countWatchers(db: DbOrTx, auctionId: number): Promise<number> {
  const row = await db
    .selectFrom('watchlist')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('auction_id', '=', auctionId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Which of `auctionIds` (one page of cards) `userId` watches: one statement over the primary key. */
export async function watchedAmong(db: DbOrTx, userId: number, auctionIds: readonly number[]): Promise<Set<number>> {
  if (auctionIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('watchlist')
    .select('auction_id')
    .where('user_id', '=', userId)
    .where('auction_id', 'in', [...auctionIds])
    .execute();
  return new Set(rows.map((r) => r.auction_id));
}

/** Users who started watching the auction before `before` (the ending-soon window's start), blocked users left out. */
export async function watcherIdsBefore(db: DbOrTx, auctionId: number, before: string): Promise<number[]> {
  const rows = await db
    .selectFrom('watchlist')
    .innerJoin('users', 'users.id', 'watchlist.user_id')
    .select('watchlist.user_id')
    .where('watchlist.auction_id', '=', auctionId)
    .where('watchlist.created_at', '<', before)
    .where('users.blocked_at', 'is', null)
    .execute();
  return rows.map((r) => r.user_id);
}
