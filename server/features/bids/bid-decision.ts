import type { Auction, DbOrTx, User } from '../../db/types';
import { isoAt } from '../../lib/time';
import { MIN_BID_INCREMENT } from '@shared/rules/limits';
import { resolveBid, type AutoBidAction, type AutoBidOutcome, type AutoBidRow, type AutoBidState } from '@shared/rules/auto-bid';
import type { BidResponse } from '@shared/schemas/bids';
import { notificationEvents, type DomainEvent } from '../../events';
import {
  acceptBidRows,
  findLeaderAndMax,
  findUserNames,
  insertBids,
  lockAuction,
  markMaxBeaten,
  raiseMax,
  saveMax,
  type AcceptedState,
  type ActiveMax,
  type ActiveMaxNamed,
} from './bids.repository';
import { presentBid, presentBidPlacedEvent } from './bids.presenter';
import { outcomeRefusal, refusalFor, type Refusal } from './bid-refusals';
import { notifyOf, queueBidNotice, type BidNotice } from './bid-notices';

/** A row written for the request, presented, with the auction's state right after it. */
export interface WrittenRow {
  bid: BidResponse;
  state: AcceptedState;
}

/** What one bid or maximum did, decided and written inside the caller's transaction. */
export interface Decided {
  outcome: AutoBidOutcome;
  rows: WrittenRow[];
  /** The auction after the request: the last row's state, or as locked when no row was written. */
  after: AcceptedState;
  /** The caller leads afterwards. */
  leading: boolean;
  /** Soft close moved the end. */
  extended: boolean;
  /** Set when the request is refused after writing rows (a manual bid equal to the leader's maximum). */
  refusal: Refusal | null;
  /** Published after the commit: one `bid:placed` per row in seq order, then the notifications (unless queued). */
  events: DomainEvent[];
  /** The notifications were queued as a notice (`deferNotifications`): deliverBidNotices() writes them. */
  noticeQueued: boolean;
}

interface Ctx {
  tx: DbOrTx;
  auction: Auction;
  bidder: User;
  /** The leader before the request, and its active maximum (see resolveBid's state). */
  leader: number | null;
  leaderMax: number | null;
  /** The active maximum as read under the lock, with its owner's name. */
  active: ActiveMaxNamed | null;
  /**
   * When the request arrived: the auction must be open then, and its rows, maxima and notifications are dated
   * then (a bid made before the end that waited for the lock past it still counts; close-race.test.ts).
   */
  nowMs: number;
  softMs: number;
}

/**
 * The rules' view of an auction (resolveBid's state): its price, the leader (the highest bid's bidder) and the
 * leader's active maximum. An active maximum held by anyone else cannot count (only the leader holds one).
 */
export function rulesState(price: number, leader: number | null, active: ActiveMax | null | undefined, reserve: number | null = null): AutoBidState {
  return { price, leader, leaderMax: active && active.bidder_id === leader ? active.max_amount : null, reserve };
}

/**
 * The auction's price as a decision saw it under the row lock (after its rows, if it wrote any); undefined for
 * an answer that read no auction (a missing one, an Idempotency-Key replay). Left in the bid lane for the bids
 * waiting behind it (bid-lanes.ts).
 */
export function lockedPrice(d: Decided | Refusal | { replay: unknown } | { keyReused: true }): number | undefined {
  if ('after' in d) return d.after.current_price;
  return 'current_price' in d ? d.current_price : undefined;
}

/**
 * The heart of a bid and of a maximum (docs/bidding.md): locks the auction row, reads the leader and the
 * active maximum, lets shared/rules/auto-bid.ts resolveBid() decide, then writes each row (own seq, bid_count,
 * soft-close end), the maxima and the notifications. A refusal without rows writes nothing (the caller rolls
 * its transaction back: see transactUnlessReadOnly).
 */
export async function decideBid(
  tx: DbOrTx,
  bidder: User,
  auctionId: number,
  action: Omit<AutoBidAction, 'bidder'>,
  nowMs: number,
  softMs: number,
  /** A manual bid's: queue the notifications as a notice, delivered after the broadcast (bid-notices.ts). */
  deferNotifications = false,
): Promise<Decided | Refusal> {
  const auction = await lockAuction(tx, auctionId, bidder.id);
  // A manual bid below price + 10 is refused by the rules before they look at the leader or at maxima: on a
  // hot auction that is nearly every bid that waited for the lock behind the one accepted before it. It is
  // answered from the locked row, without the two reads below, so the lock is held for one round trip
  // (docs/performance.md, B1pg). A maximum's minimum depends on who leads, so it is read first.
  const refusal = refusalFor(auction, bidder.id, action.kind === 'manual' ? action.amount : null, nowMs);
  if (refusal || !auction) return refusal ?? { refused: 'not_found' };
  const { leader, active } = await findLeaderAndMax(tx, auction.id);
  const state = rulesState(auction.current_price, leader, active, auction.reserve_price);
  const leaderMax = state.leaderMax;
  const outcome = resolveBid(state, { ...action, bidder: bidder.id });
  const refused = outcomeRefusal(outcome);
  if (refused && !outcome.rows.length) return refused;

  const c: Ctx = { tx, auction, bidder, leader, leaderMax, active, nowMs, softMs };
  const rows = await writeRows(c, outcome.rows);
  await storeMaxima(c, action, outcome);
  const notice = noticeOf(c, outcome, rows);
  const queue = deferNotifications && notice !== null;
  if (queue) await queueBidNotice(tx, notice);
  const notifications = notice && !queue ? await notifyOf(tx, notice) : [];
  const after = rows.at(-1)?.state ?? auction;
  return {
    outcome,
    rows,
    after: { id: after.id, current_price: after.current_price, bid_count: after.bid_count, seq: after.seq, end_date: after.end_date },
    leading: outcome.leader === bidder.id,
    extended: after.end_date !== auction.end_date,
    refusal: refused,
    noticeQueued: queue,
    events: [...rows.map((r): DomainEvent => ({ type: 'bid:placed', payload: presentBidPlacedEvent(r.bid, r.state, auction.reserve_price) })), ...notificationEvents(notifications)],
  };
}

/** The rows' bidders' names: the caller's and the active maximum's owner's are known; anyone else's is read. */
async function namesOf(c: Ctx, rows: AutoBidRow[]): Promise<Map<number, string>> {
  const known = new Map<number, string>(c.active ? [[c.active.bidder_id, c.active.first_name]] : []);
  known.set(c.bidder.id, c.bidder.first_name);
  const others = rows.map((r) => r.bidder).filter((id) => !known.has(id));
  const names = others.length ? await findUserNames(c.tx, others) : new Map<number, string>();
  for (const [id, name] of known) names.set(id, name);
  return names;
}

async function writeRows(c: Ctx, rows: AutoBidRow[]): Promise<WrittenRow[]> {
  if (!rows.length) return [];
  const now = isoAt(c.nowMs);
  const extendTo = c.softMs > 0 ? isoAt(c.nowMs + c.softMs) : null;
  const names = await namesOf(c, rows);
  // An automatic first row capped at its owner's maximum only has to be above the price (rule 5); the rules
  // write the rows rising, each above the one before.
  const minStep = rows[0]!.auto ? 1 : MIN_BID_INCREMENT;
  const amounts = rows.map((r) => r.amount);
  const states = await acceptBidRows(c.tx, { auctionId: c.auction.id, amounts, now, extendTo, minStep });
  // Cannot happen under the row lock (the rules only write rows that clear it); rolls the request back.
  if (!states) throw new Error(`auction ${c.auction.id}: decided bid rows were refused under its lock`);
  const inserted = await insertBids(
    c.tx,
    rows.map((r) => ({ auction_id: c.auction.id, bidder_id: r.bidder, amount: r.amount, created_at: now, auto: r.auto ? 1 : 0 })),
  );
  return inserted.map((row, i) => ({ bid: presentBid({ ...row, bidder_name: names.get(row.bidder_id) ?? '' }), state: states[i]! }));
}

/** The beaten maximum is spent first (one active per auction), then the caller's new or raised one is kept. */
async function storeMaxima(c: Ctx, action: Omit<AutoBidAction, 'bidder'>, outcome: AutoBidOutcome): Promise<void> {
  const now = isoAt(c.nowMs);
  const key = { auction_id: c.auction.id, bidder_id: c.bidder.id };
  const beaten = outcome.beaten;
  if (beaten && beaten.bidder !== c.bidder.id) await markMaxBeaten(c.tx, c.auction.id, beaten.bidder, now);
  if (action.kind !== 'max' || outcome.refusal) return;
  if (beaten?.bidder === c.bidder.id) await saveMax(c.tx, { ...key, max_amount: action.amount, created_at: now, beatenAt: now });
  // The leader raised (or repeated) the one it holds: no row, or its row at the reserve (issue 25).
  else if (c.leader === c.bidder.id && c.leaderMax !== null) await raiseMax(c.tx, c.auction.id, c.bidder.id, action.amount);
  // A new maximum: a newcomer's, or the leader's first (no row, or its row at the reserve).
  else await saveMax(c.tx, { ...key, max_amount: action.amount, created_at: now, beatenAt: null });
}

/** Once per request: the beaten maximum's owner or the outbid bidder, then the seller (the last row); null: nobody. */
function noticeOf(c: Ctx, outcome: AutoBidOutcome, rows: WrittenRow[]): BidNotice | null {
  const last = rows.at(-1);
  if (!outcome.beaten && outcome.outbid === undefined && !last) return null;
  return {
    auction: { id: c.auction.id, title: c.auction.title },
    sellerId: c.auction.seller_id,
    nowMs: c.nowMs,
    beaten: outcome.beaten ?? null,
    outbid: outcome.outbid ?? null,
    price: outcome.price,
    last: last ? { bidderName: last.bid.bidder_name, amount: last.bid.amount, before: c.auction.bid_count, after: last.state.bid_count } : null,
  };
}
