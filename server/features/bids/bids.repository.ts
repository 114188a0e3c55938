import { precompiled } from '../../db/precompiled';
import type { Auction, AutoBid, Bid, DbOrTx } from '../../db/types';
import { isPostgres } from '../../db/dialect';
import { sql } from 'kysely';
import { MIN_BID_INCREMENT } from '@shared/rules/limits';

/**
 * `active = 1` written into the SQL, not bound: the partial index auto_bids_one_active (… WHERE active = 1) can
 * serve a statement whose `active` is a bound parameter only by SQLite re-preparing it on every run (it checks the
 * bound value), which made the maximum's one-read gate cost 27 µs instead of 7 µs (docs/performance.md, B1auto).
 */
const ACTIVE = sql.lit(1);

export type BidWithName = Bid & { bidder_name: string };

/**
 * What decides whether a bid can be taken. `blocked`: the seller blocked the bidder (issue 24; 0/1 on SQLite, a
 * boolean on PostgreSQL), read in the same statement as the auction from member_blocks' primary key, so the
 * check costs no round trip of its own (absent where no bidder was asked about).
 */
export type BidGate = Pick<Auction, 'seller_id' | 'status' | 'end_date' | 'current_price'> & { blocked?: number | boolean };

/** `EXISTS (the seller of auctions row `a` blocked `bidderId`)`: one lookup of member_blocks' primary key. */
const sellerBlocked = (bidderId: number) => sql<number | boolean>`exists (select 1 from member_blocks as mb where mb.blocker_id = a.seller_id and mb.blocked_id = ${bidderId})`;

const gateById = precompiled((db: DbOrTx, p: { id: number; bidderId: number }) =>
  db
    .selectFrom('auctions as a')
    .select(['a.seller_id', 'a.status', 'a.end_date', 'a.current_price', sellerBlocked(p.bidderId).as('blocked')])
    .where('a.id', '=', p.id),
);

/** Just what decides whether `bidderId`'s bid can be taken (read for every bid before its transaction). */
export async function findBidGate(db: DbOrTx, id: number, bidderId: number): Promise<BidGate | undefined> {
  return (await gateById(db, { id, bidderId }))[0];
}

/** What decides whether `buyerId` can use "Kupi odmah" (issue 25), read before its transaction. */
export function findBuyNowGate(db: DbOrTx, id: number, buyerId: number) {
  return db
    .selectFrom('auctions as a')
    .select(['a.seller_id', 'a.status', 'a.end_date', 'a.current_price', 'a.bid_count', 'a.buy_now_price', sellerBlocked(buyerId).as('blocked')])
    .where('a.id', '=', id)
    .executeTakeFirst();
}

export type MaxGate = BidGate & { leader_id: number | null; active: ActiveMax | null };

const maxGateById = precompiled((db: DbOrTx, p: { id: number; bidderId: number }) =>
  db
    .selectFrom('auctions as a')
    .select(['a.seller_id', 'a.status', 'a.end_date', 'a.current_price', sellerBlocked(p.bidderId).as('blocked')])
    .select((eb) => [
      eb.selectFrom('bids').select('bidder_id').whereRef('bids.auction_id', '=', 'a.id').orderBy('amount', 'desc').limit(1).as('leader_id'),
      eb.selectFrom('auto_bids').select('bidder_id').whereRef('auto_bids.auction_id', '=', 'a.id').where('active', '=', ACTIVE).as('max_bidder_id'),
      eb.selectFrom('auto_bids').select('max_amount').whereRef('auto_bids.auction_id', '=', 'a.id').where('active', '=', ACTIVE).as('max_amount'),
    ])
    .where('a.id', '=', p.id),
);

/**
 * The gate of a maximum (read before its transaction): the bid gate, the leader and the active maximum, in ONE
 * statement, so all of it is one moment of the auction (two reads could mix two; docs/performance.md, B1auto).
 */
export async function findMaxGate(db: DbOrTx, id: number, bidderId: number): Promise<MaxGate | undefined> {
  const row = (await maxGateById(db, { id, bidderId }))[0];
  if (!row) return undefined;
  const { max_bidder_id, max_amount, ...gate } = row;
  return { ...gate, active: max_bidder_id !== null && max_amount !== null ? { bidder_id: max_bidder_id, max_amount } : null };
}

/**
 * The auction a bid or a maximum is decided on, locked until the transaction ends: on PostgreSQL the row lock
 * makes concurrent bids on one auction take turns, so the leader and the active maximum read next cannot change
 * under the decision; SQLite's one writer (the write transaction) does the same. The lock is FOR NO KEY UPDATE:
 * it excludes every other bid, "Kupi odmah", edit and close of the auction (each takes the same lock, or a
 * stronger one to delete it), but not the foreign-key checks of rows that only point at the auction (a comment, a
 * watch, a notification written by another transaction), which FOR UPDATE made wait for the whole bid.
 */
export async function lockAuction(tx: DbOrTx, id: number, bidderId: number): Promise<(Auction & Required<Pick<BidGate, 'blocked'>>) | undefined> {
  return (await lockedAuctionById(tx, { id, bidderId }))[0];
}

// Read for every accepted bid: built and compiled once per database (the build sees which one it is). Whether
// the seller blocked the bidder is read with it (issue 24): a block committed before the lock is seen here.
const lockedAuctionById = precompiled((db: DbOrTx, p: { id: number; bidderId: number }) => {
  const q = db.selectFrom('auctions as a').selectAll('a').select(sellerBlocked(p.bidderId).as('blocked')).where('a.id', '=', p.id);
  return isPostgres(db) ? q.forNoKeyUpdate() : q;
});

/** The active maximum's owner and amount, with the owner's first name (for the automatic row it may write). */
export type ActiveMaxNamed = ActiveMax & { first_name: string };

const leaderAndMaxOf = precompiled((db: DbOrTx, p: { auctionId: number }) =>
  db.selectNoFrom((eb) => [
    eb.selectFrom('bids').select('bidder_id').where('auction_id', '=', p.auctionId).orderBy('amount', 'desc').limit(1).as('leader_id'),
    eb.selectFrom('auto_bids').select('bidder_id').where('auction_id', '=', p.auctionId).where('active', '=', ACTIVE).as('max_bidder_id'),
    eb.selectFrom('auto_bids').select('max_amount').where('auction_id', '=', p.auctionId).where('active', '=', ACTIVE).as('max_amount'),
    eb
      .selectFrom('auto_bids as ab')
      .innerJoin('users as u', 'u.id', 'ab.bidder_id')
      .select('u.first_name')
      .where('ab.auction_id', '=', p.auctionId)
      .where('ab.active', '=', ACTIVE)
      .as('max_first_name'),
  ]),
);

/**
 * Read under the auction's lock for every bid or maximum that passed its refusal checks, in ONE statement: the
 * leader (the highest bid's bidder; prices only rise, so also the latest accepted) and the active maximum (at
 * most one: the leader's) with its owner's first name, the only other name an automatic row can carry.
 */
export async function findLeaderAndMax(db: DbOrTx, auctionId: number): Promise<{ leader: number | null; active: ActiveMaxNamed | null }> {
  const row = (await leaderAndMaxOf(db, { auctionId }))[0];
  const leader = row?.leader_id ?? null;
  const { max_bidder_id: id, max_amount: max, max_first_name: name } = row ?? {};
  return { leader, active: id != null && max != null ? { bidder_id: id, max_amount: max, first_name: name ?? '' } : null };
}

export type AcceptedState = Pick<Auction, 'id' | 'current_price' | 'bid_count' | 'seq' | 'end_date'>;

const acceptUpdate = (extend: boolean) =>
  precompiled((db: DbOrTx, p: { auctionId: number; first: number; last: number; rows: number; now: string; extendTo: string; minStep: number }) =>
    db
      .updateTable('auctions')
      .set((eb) => ({
        current_price: p.last,
        bid_count: eb('bid_count', '+', p.rows),
        seq: eb('seq', '+', p.rows),
        end_date: extend ? eb.case().when('end_date', '<', p.extendTo).then(p.extendTo).else(eb.ref('end_date')).end() : eb.ref('end_date'),
      }))
      .where('id', '=', p.auctionId)
      .where('status', '=', 'active')
      .where('end_date', '>', p.now)
      .where((eb) => eb(eb('current_price', '+', p.minStep), '<=', p.first))
      .returning(['id', 'current_price', 'bid_count', 'seq', 'end_date']),
  );
const acceptPlain = acceptUpdate(false);
const acceptExtending = acceptUpdate(true);

/**
 * The one atomic step of accepting a request's bid rows (amounts rising, as the rules write them): moves the
 * price to the last row's amount only if the auction is still open at `now` and the first row still clears
 * current_price + its `minStep` (10; 1 for an automatic row capped at its owner's maximum, which only has to be
 * above the price) at this instant, so two rows can never be accepted at the same price and the price only
 * rises. Bumps bid_count and seq once per row, in one statement. `extendTo` (soft close) replaces an earlier
 * end_date. Returns each row's state (its own price, bid_count and seq; the end is the same for all rows of one
 * request), or undefined = refused.
 */
export async function acceptBidRows(
  db: DbOrTx,
  p: { auctionId: number; amounts: number[]; now: string; extendTo: string | null; minStep?: number },
): Promise<AcceptedState[] | undefined> {
  const n = p.amounts.length;
  const accept = p.extendTo ? acceptExtending : acceptPlain;
  // Without soft close the plain form has no extendTo parameter (the value is not bound).
  const params = { auctionId: p.auctionId, first: p.amounts[0]!, last: p.amounts[n - 1]!, rows: n, now: p.now, extendTo: p.extendTo ?? '', minStep: p.minStep ?? MIN_BID_INCREMENT };
  const after = (await accept(db, params))[0];
  if (!after) return undefined;
  return p.amounts.map((amount, i) => ({ ...after, current_price: amount, bid_count: after.bid_count - (n - 1 - i), seq: after.seq - (n - 1 - i) }));
}

export type NewBid = { auction_id: number; bidder_id: number; amount: number; created_at: string; auto: number };

const insertRows = new Map<number, ReturnType<typeof insertRowsOf>>();
const insertRowsOf = (n: number) =>
  precompiled((db: DbOrTx, p: Record<string, number | string>) =>
    db
      .insertInto('bids')
      .values(Array.from({ length: n }, (_, i) => ({ auction_id: p[`a${i}`] as number, bidder_id: p[`b${i}`] as number, amount: p[`m${i}`] as number, created_at: p[`c${i}`] as string, auto: p[`x${i}`] as number })))
      .returningAll(),
  );

/** Inserts a request's bid rows in one statement; returns them in the order given (amounts rise). */
export async function insertBids(db: DbOrTx, rows: NewBid[]): Promise<Bid[]> {
  let insert = insertRows.get(rows.length);
  if (!insert) insertRows.set(rows.length, (insert = insertRowsOf(rows.length)));
  const params: Record<string, number | string> = {};
  rows.forEach((r, i) => Object.assign(params, { [`a${i}`]: r.auction_id, [`b${i}`]: r.bidder_id, [`m${i}`]: r.amount, [`c${i}`]: r.created_at, [`x${i}`]: r.auto }));
  const inserted = await insert(db, params);
  // RETURNING's order is not promised for a multi-row INSERT: by amount, which rises with the rows.
  return inserted.sort((a, b) => a.amount - b.amount);
}

/** The one row of a "Kupi odmah" (issue 25): `buy_now` 1, typed by the buyer (not automatic). */
export async function insertBuyNowBid(db: DbOrTx, row: Omit<NewBid, 'auto'>): Promise<Bid> {
  return db.insertInto('bids').values({ ...row, auto: 0, buy_now: 1 }).returningAll().executeTakeFirstOrThrow();
}

export type ActiveMax = Pick<AutoBid, 'bidder_id' | 'max_amount'>;

/** One bidder's active maximum on an auction (for its owner only), if any. */
export async function findOwnActiveMax(db: DbOrTx, auctionId: number, bidderId: number): Promise<number | null> {
  const row = await db
    .selectFrom('auto_bids')
    .select('max_amount')
    .where('auction_id', '=', auctionId)
    .where('bidder_id', '=', bidderId)
    .where('active', '=', ACTIVE)
    .executeTakeFirst();
  return row?.max_amount ?? null;
}

/**
 * Stores a bidder's maximum in their one row of the auction (created, or re-used after an earlier one was
 * beaten): active, or already beaten (`beatenAt`) when it was answered at once. Deactivate the previous
 * active maximum first (one active per auction, a unique index).
 */
export async function saveMax(
  tx: DbOrTx,
  m: { auction_id: number; bidder_id: number; max_amount: number; created_at: string; beatenAt: string | null },
): Promise<void> {
  const values = { max_amount: m.max_amount, created_at: m.created_at, active: m.beatenAt ? 0 : 1, beaten_at: m.beatenAt };
  await tx
    .insertInto('auto_bids')
    .values({ auction_id: m.auction_id, bidder_id: m.bidder_id, ...values })
    .onConflict((oc) => oc.columns(['auction_id', 'bidder_id']).doUpdateSet(values))
    .execute();
}

/** Raises the bidder's active maximum (no row, no event). */
export async function raiseMax(tx: DbOrTx, auctionId: number, bidderId: number, maxAmount: number): Promise<void> {
  await tx.updateTable('auto_bids').set({ max_amount: maxAmount }).where('auction_id', '=', auctionId).where('bidder_id', '=', bidderId).execute();
}

/** The bidder's active maximum was beaten at `now`: spent (its owner is told once, by the caller). */
export async function markMaxBeaten(tx: DbOrTx, auctionId: number, bidderId: number, now: string): Promise<void> {
  await tx
    .updateTable('auto_bids')
    .set({ active: 0, beaten_at: now })
    .where('auction_id', '=', auctionId)
    .where('bidder_id', '=', bidderId)
    .where('active', '=', ACTIVE)
    .execute();
}

/**
 * A blocked user's maxima stop answering bids: every active one of theirs is switched off (the rows they
 * already bid stay, like manual bids). Blocking is rare, so the scan by bidder needs no index.
 */
export async function cancelMaximaOf(db: DbOrTx, bidderId: number, now: string): Promise<number> {
  const r = await db.updateTable('auto_bids').set({ active: 0, beaten_at: now }).where('bidder_id', '=', bidderId).where('active', '=', ACTIVE).executeTakeFirst();
  return Number(r.numUpdatedRows);
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

/** A manual bid's notice for its notifications, in the bid's own transaction (bid-notices.ts). */
export async function insertBidNotice(tx: DbOrTx, auctionId: number, notice: string, now: string): Promise<void> {
  await insertBidNoticeOf(tx, { auctionId, notice, now });
}

const insertBidNoticeOf = precompiled((db: DbOrTx, p: { auctionId: number; notice: string; now: string }) =>
  db.insertInto('bid_notices').values({ auction_id: p.auctionId, notice: p.notice, created_at: p.now }),
);

/**
 * Claims every notice of an auction by deleting it, oldest first. A notice deleted by one transaction (or node)
 * returns for it alone; on PostgreSQL a concurrent claim of the same auction waits for that one's commit (the
 * deleted rows' locks), so the auction's notices are delivered in the order their bids committed.
 */
export async function claimBidNotices(tx: DbOrTx, auctionId: number): Promise<{ id: number; notice: string }[]> {
  const rows = await claimBidNoticesOf(tx, { auctionId });
  return rows.sort((a, b) => a.id - b.id);
}

const claimBidNoticesOf = precompiled((db: DbOrTx, p: { auctionId: number }) =>
  db.deleteFrom('bid_notices').where('auction_id', '=', p.auctionId).returning(['id', 'notice']),
);

/** Auctions with a notice older than `before`: left by a delivery that failed or a process that stopped. */
export async function strayBidNoticeAuctions(db: DbOrTx, before: string, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('bid_notices').select('auction_id').distinct().where('created_at', '<', before).limit(limit).execute();
  return rows.map((r) => r.auction_id);
}
