import { isPostgres } from '../../db/dialect';
import type { DbOrTx } from '../../db/types';
import { closeOutcome, type AuctionOutcome } from '@shared/rules/buy-now';

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

/** The end_date of the active auction that has been due the longest at `now`, or undefined when none is due. */
export async function findOldestDueEnd(db: DbOrTx, now: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('auctions')
    .select('end_date')
    .where('status', '=', 'active')
    .where('end_date', '<=', now)
    .orderBy('end_date', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row?.end_date;
}

/**
 * Ends the auction if it is still active and due at `now`: status, closed_at, the outcome (shared/rules/
 * buy-now.ts closeOutcome: sold, unsold, or reserve_not_met below the reserve), the highest bidder as winner
 * when sold, and the next seq, in one conditional UPDATE. Undefined when it was not (any more) due: another
 * node or an earlier sweep closed it, a "Kupi odmah" ended it, or a bid moved its end.
 */
export async function markEnded(tx: DbOrTx, auctionId: number, now: string) {
  // PostgreSQL, READ COMMITTED: the UPDATE's winner subquery reads the snapshot taken before it waited for a
  // bidder's row lock, so it could name the previous leader next to the new price. Locking the row first
  // makes the UPDATE's snapshot start after every bid on it committed. (SQLite serialises writers anyway.)
  // The price, count and reserve read here decide the outcome; the UPDATE re-checks the price and count.
  let read = tx.selectFrom('auctions').select(['current_price', 'bid_count', 'reserve_price']).where('id', '=', auctionId);
  if (isPostgres(tx)) read = read.forUpdate();
  const locked = await read.executeTakeFirst();
  if (!locked) return undefined;
  const outcome = closeOutcome(locked.current_price, locked.bid_count, locked.reserve_price);
  const row = await updateEnded(tx, auctionId, now, outcome, locked);
  return row && { ...row, outcome };
}

function updateEnded(tx: DbOrTx, auctionId: number, now: string, outcome: AuctionOutcome, seen: { current_price: number; bid_count: number }) {
  return tx
    .updateTable('auctions')
    .set((eb) => ({
      status: 'ended' as const,
      closed_at: now,
      seq: eb('seq', '+', 1),
      outcome,
      winner_id:
        outcome === 'sold'
          ? eb.selectFrom('bids').select('bids.bidder_id').whereRef('bids.auction_id', '=', 'auctions.id').orderBy('bids.amount', 'desc').limit(1)
          : null,
    }))
    .where('id', '=', auctionId)
    .where('status', '=', 'active')
    .where('end_date', '<=', now)
    .where('current_price', '=', seen.current_price)
    .where('bid_count', '=', seen.bid_count)
    .returning(['id', 'title', 'seller_id', 'winner_id', 'current_price', 'phone_number', 'seq', 'end_date', 'reserve_price'])
    .executeTakeFirst();
}

/**
 * Ends the auction sold to `buyerId` now ("Kupi odmah", issue 25, under the auction's lock right after its row):
 * status, closed_at, end_date = now, the winner, outcome `sold`, and the next seq. Undefined when it was not
 * active any more (cannot happen under the lock).
 */
export async function markSold(tx: DbOrTx, auctionId: number, buyerId: number, now: string) {
  const row = await tx
    .updateTable('auctions')
    .set((eb) => ({ status: 'ended' as const, closed_at: now, end_date: now, winner_id: buyerId, outcome: 'sold' as const, seq: eb('seq', '+', 1) }))
    .where('id', '=', auctionId)
    .where('status', '=', 'active')
    .returning(['id', 'title', 'seller_id', 'winner_id', 'current_price', 'phone_number', 'seq', 'end_date', 'reserve_price'])
    .executeTakeFirst();
  return row && { ...row, outcome: 'sold' as AuctionOutcome };
}

export type EndedAuction = NonNullable<Awaited<ReturnType<typeof markEnded>>>;

/** The bidder of an auction's highest bid, if any. */
export async function findHighestBidder(db: DbOrTx, auctionId: number): Promise<number | undefined> {
  const row = await db.selectFrom('bids').select('bidder_id').where('auction_id', '=', auctionId).orderBy('amount', 'desc').limit(1).executeTakeFirst();
  return row?.bidder_id;
}

/** What the other side of a closed sale needs to get in touch: name, email and phone of a user. */
export function findContact(db: DbOrTx, userId: number) {
  return db.selectFrom('users').select(['id', 'first_name', 'email', 'phone_number']).where('id', '=', userId).executeTakeFirst();
}

/**
 * Ids of open auctions whose ending-soon window has opened at `now` (end_date in (now, until], until = now +
 * ENDING_SOON_SECONDS) and whose alert was not sent yet, soonest end first: a range of the (status, end_date)
 * index, the rows of the window only.
 */
export async function findEndingSoonIds(db: DbOrTx, now: string, until: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('auctions')
    .select('id')
    .where('status', '=', 'active')
    .where('ending_soon_at', 'is', null)
    .where('end_date', '>', now)
    .where('end_date', '<=', until)
    .orderBy('end_date', 'asc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Claims the auction's ending-soon alert: sets ending_soon_at if it is still open, unclaimed and inside its
 * window. Only one caller ever gets the row back (another node, a second sweep, a restart get undefined;
 * PostgreSQL re-checks the WHERE after waiting for a concurrent claim's row lock).
 */
export function claimEndingSoon(tx: DbOrTx, auctionId: number, now: string, until: string) {
  return tx
    .updateTable('auctions')
    .set({ ending_soon_at: now })
    .where('id', '=', auctionId)
    .where('status', '=', 'active')
    .where('ending_soon_at', 'is', null)
    .where('end_date', '>', now)
    .where('end_date', '<=', until)
    .returning(['id', 'title', 'end_date', 'seller_id'])
    .executeTakeFirst();
}

/**
 * Users whose first bid on the auction was placed before `before` (the ending-soon window's start), blocked
 * users left out (they cannot bid any more).
 */
export async function bidderIdsBefore(db: DbOrTx, auctionId: number, before: string): Promise<number[]> {
  const rows = await db
    .selectFrom('bids')
    .innerJoin('users', 'users.id', 'bids.bidder_id')
    .select('bids.bidder_id')
    .distinct()
    .where('bids.auction_id', '=', auctionId)
    .where('bids.created_at', '<', before)
    .where('users.blocked_at', 'is', null)
    .execute();
  return rows.map((r) => r.bidder_id);
}

/**
 * What the closer's timer aims at, in one statement: the earliest end of an open auction, and the earliest end
 * of one whose ending-soon alert is still to be sent (its window opens ENDING_SOON_SECONDS before). Both walk
 * the (status, end_date) index from its start; the second steps over the claimed ones, all inside their window.
 */
export async function findNextWakeDates(db: DbOrTx): Promise<{ nextEnd: string | null; nextUnalerted: string | null }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('auctions').select((a) => a.fn.min('end_date').as('m')).where('status', '=', 'active').as('next_end'),
      eb
        .selectFrom('auctions')
        .select((a) => a.fn.min('end_date').as('m'))
        .where('status', '=', 'active')
        .where('ending_soon_at', 'is', null)
        .as('next_unalerted'),
    ])
    .executeTakeFirst();
  return { nextEnd: (row?.next_end as string | null | undefined) ?? null, nextUnalerted: (row?.next_unalerted as string | null | undefined) ?? null };
}
