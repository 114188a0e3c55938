import { precompiled } from '../../db/precompiled';
import type { Auction, Bid, DbOrTx } from '../../db/types';
import { MIN_BID_INCREMENT } from '@shared/rules/limits';

export type BidWithName = Bid & { bidder_name: string };

export type BidGate = Pick<Auction, 'seller_id' | 'status' | 'end_date' | 'current_price'>;

const gateById = precompiled((db: DbOrTx, p: { id: number }) =>
  db.selectFrom('auctions').select(['seller_id', 'status', 'end_date', 'current_price']).where('id', '=', p.id),
);

/** Just what decides whether a bid can be taken (read for every bid before its transaction). */
export async function findBidGate(db: DbOrTx, id: number): Promise<BidGate | undefined> {
  return (await gateById(db, { id }))[0];
}

/** The current leader: the highest bid so far (prices only rise, so also the latest accepted). */
export function findLeadingBid(db: DbOrTx, auctionId: number): Promise<Bid | undefined> {
  return db
    .selectFrom('bids')
    .selectAll()
    .where('auction_id', '=', auctionId)
    .orderBy('amount', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export type AcceptedState = Pick<Auction, 'id' | 'current_price' | 'bid_count' | 'seq' | 'end_date'>;

/**
 * The one atomic step of accepting a bid: moves the price only if the auction is still open at `now` and
 * `amount` still clears current_price + 10 at this instant, so two bids can never be accepted at the same
 * price and the price only rises. `extendTo` (soft close) replaces an earlier end_date. Undefined = refused.
 */
export function acceptBidUpdate(
  db: DbOrTx,
  p: { auctionId: number; amount: number; now: string; extendTo: string | null },
): Promise<AcceptedState | undefined> {
  return db
    .updateTable('auctions')
    .set((eb) => ({
      current_price: p.amount,
      bid_count: eb('bid_count', '+', 1),
      seq: eb('seq', '+', 1),
      end_date: p.extendTo
        ? eb.case().when('end_date', '<', p.extendTo).then(p.extendTo).else(eb.ref('end_date')).end()
        : eb.ref('end_date'),
    }))
    .where('id', '=', p.auctionId)
    .where('status', '=', 'active')
    .where('end_date', '>', p.now)
    .where((eb) => eb(eb('current_price', '+', MIN_BID_INCREMENT), '<=', p.amount))
    .returning(['id', 'current_price', 'bid_count', 'seq', 'end_date'])
    .executeTakeFirst();
}

export function insertBid(db: DbOrTx, b: { auction_id: number; bidder_id: number; amount: number; created_at: string }): Promise<Bid> {
  return db.insertInto('bids').values(b).returningAll().executeTakeFirstOrThrow();
}

/** Oldest first, with each bidder's display name. */
export function listBids(db: DbOrTx, auctionId: number): Promise<BidWithName[]> {
  return db
    .selectFrom('bids')
    .innerJoin('users', 'users.id', 'bids.bidder_id')
    .selectAll('bids')
    .select('users.first_name as bidder_name')
    .where('bids.auction_id', '=', auctionId)
    .orderBy('bids.id', 'asc')
    .execute();
}

export async function findUserNames(db: DbOrTx, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'first_name']).where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r.first_name]));
}

/** How long an Idempotency-Key's first answer is kept (and replayed). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export type StoredAnswer = { request_hash: string; status: number; body: string };

/** The stored first answer to (user, key) if it is younger than `since`; an older one is deleted first. */
export async function findIdempotentAnswer(db: DbOrTx, userId: number, key: string, since: string): Promise<StoredAnswer | undefined> {
  await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).where('created_at', '<', since).execute();
  return db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status', 'body'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function insertIdempotentAnswer(
  db: DbOrTx,
  row: { user_id: number; key: string; request_hash: string; status: number; body: string; created_at: string },
): Promise<void> {
  await db.insertInto('idempotency_keys').values(row).execute();
}

/** Deletes keys older than `before`; returns how many. */
export async function pruneIdempotencyKeys(db: DbOrTx, before: string): Promise<number> {
  const r = await db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}
