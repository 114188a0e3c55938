import { isPostgres } from '../../db/dialect';
import type { DbOrTx } from '../../db/types';

/** Ids of active auctions whose end_date has passed at `now`, earliest end first. */
export async function findDueAuctionIds(db: DbOrTx, now: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('auctions')
    .select('id')
    .where('status', '=', 'active')
    .where('end_date', '<=', now)
    .orderBy('end_date', 'asc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** The earliest end_date of an active auction, or null when none is active. */
export async function findNextEndDate(db: DbOrTx): Promise<string | null> {
  const row = await db
    .selectFrom('auctions')
    .select((eb) => eb.fn.min('end_date').as('next'))
    .where('status', '=', 'active')
    .executeTakeFirst();
  return (row?.next as string | null | undefined) ?? null;
}

/**
 * Ends the auction if it is still active and due at `now`: status, closed_at, the highest bidder as winner
 * and the next seq, in one conditional UPDATE. Undefined when it was not (any more) due: another node or
 * an earlier sweep closed it, or a bid moved its end.
 */
export async function markEnded(tx: DbOrTx, auctionId: number, now: string) {
  // PostgreSQL, READ COMMITTED: the UPDATE's winner subquery reads the snapshot taken before it waited for a
  // bidder's row lock, so it could name the previous leader next to the new price. Locking the row first
  // makes the UPDATE's snapshot start after every bid on it committed. (SQLite serialises writers anyway.)
  if (isPostgres(tx)) await tx.selectFrom('auctions').select('id').where('id', '=', auctionId).forUpdate().execute();
  return updateEnded(tx, auctionId, now);
}

function updateEnded(tx: DbOrTx, auctionId: number, now: string) {
  return tx
    .updateTable('auctions')
    .set((eb) => ({
      status: 'ended' as const,
      closed_at: now,
      seq: eb('seq', '+', 1),
      winner_id: eb
        .selectFrom('bids')
        .select('bids.bidder_id')
        .whereRef('bids.auction_id', '=', 'auctions.id')
        .orderBy('bids.amount', 'desc')
        .limit(1),
    }))
    .where('id', '=', auctionId)
    .where('status', '=', 'active')
    .where('end_date', '<=', now)
    .returning(['id', 'title', 'seller_id', 'winner_id', 'current_price', 'phone_number', 'seq', 'end_date'])
    .executeTakeFirst();
}

export type EndedAuction = NonNullable<Awaited<ReturnType<typeof markEnded>>>;

/** What the other side of a closed sale needs to get in touch: name, email and phone of a user. */
export function findContact(db: DbOrTx, userId: number) {
  return db.selectFrom('users').select(['id', 'first_name', 'email', 'phone_number']).where('id', '=', userId).executeTakeFirst();
}
