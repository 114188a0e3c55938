import type { AppContext } from '../../context';
import type { DbOrTx, User } from '../../db/types';
import { AppError, errorBody } from '../../http/errors';
import { isoAt } from '../../lib/time';
import { minNextBid, isOpen } from '@shared/rules/bids';
import { sr } from '@shared/texts/sr';
import { bidTexts, type BidResponse, type PlaceBidInput } from '@shared/schemas/bids';
import { notifyNewBid, notifyOutbid, type NotificationChange } from '../notifications/notifications.service';
import { findAuction } from '../auctions/auctions.repository';
import { notificationEvents, type DomainEvent } from '../../realtime/events';
import {
  acceptBidUpdate,
  findBidGate,
  findIdempotentAnswer,
  findLeadingBid,
  insertBid,
  insertIdempotentAnswer,
  IDEMPOTENCY_TTL_MS,
  type AcceptedState,
  type BidGate,
  type StoredAnswer,
} from './bids.repository';
import { presentBid, presentBidPlacedEvent, presentPlacedBid } from './bids.presenter';
import { isUniqueViolation } from '../../db/dialect';

export interface PlacedBid {
  bid: BidResponse;
  state: AcceptedState;
  /** Soft close moved the end. */
  extended: boolean;
  /** To publish after the commit: `bid:placed`, then the notifications of the outbid leader and the seller. */
  events: DomainEvent[];
}

/** Why a bid is refused; every refusal on an existing auction knows the price it was refused at. */
type Refusal = { refused: 'not_found' } | { refused: 'own' | 'ended' | 'too_low'; current_price: number };

/** Why the (re-read) auction cannot take `amount` now, or null when it could. */
function refusalFor(auction: BidGate | undefined, bidderId: number, amount: number, nowMs: number): Refusal | null {
  if (!auction) return { refused: 'not_found' };
  const { current_price } = auction;
  if (auction.seller_id === bidderId) return { refused: 'own', current_price };
  if (auction.status !== 'active' || !isOpen(auction.end_date, nowMs)) return { refused: 'ended', current_price };
  if (amount < minNextBid(current_price)) return { refused: 'too_low', current_price };
  return null;
}

/**
 * The one place a refusal becomes its answer (fast path, transaction, stored Idempotency-Key answer alike).
 * A refusal on an existing auction carries `current_price` and `min_amount` (= minNextBid(current_price),
 * the smallest bid the auction would take now if it were open) as numbers, next to the `amount` message
 * (BidRefusalResponse in shared/schemas/bids.ts); a missing auction is a plain 404.
 */
function toError(r: Refusal): AppError {
  if (r.refused === 'not_found') return AppError.notFound();
  const min = minNextBid(r.current_price);
  const extra = { current_price: r.current_price, min_amount: min };
  switch (r.refused) {
    case 'own':
      return AppError.field('amount', bidTexts.ownAuction, 400, 'own_auction', extra);
    case 'ended':
      return AppError.field('amount', bidTexts.ended, 400, 'auction_ended', extra);
    case 'too_low':
      return AppError.field('amount', sr.detail.minBid(min), 400, 'bid_too_low', extra);
  }
}

/** An Idempotency-Key of one request: the key as sent and a hash of the parsed bid it came with. */
export interface IdempotencyKey {
  key: string;
  hash: string;
}

/** The first answer to an earlier request with the same key: status and the exact JSON body. */
export interface Replay {
  status: number;
  body: string;
}

export type BidResult = { placed: PlacedBid; replay?: undefined } | { replay: Replay; placed?: undefined };

type Decision = PlacedBid | Refusal | { replay: Replay } | { keyReused: true };

function answerOf(outcome: PlacedBid | Refusal): Replay {
  if ('refused' in outcome) {
    const err = toError(outcome);
    return { status: err.status, body: JSON.stringify(errorBody(err)) };
  }
  return { status: 201, body: JSON.stringify(presentPlacedBid(outcome.bid, outcome.state)) };
}

function replayOf(stored: StoredAnswer, idem: IdempotencyKey): { replay: Replay } | { keyReused: true } {
  return stored.request_hash === idem.hash ? { replay: { status: stored.status, body: stored.body } } : { keyReused: true };
}

/**
 * Places a bid (design.md §4). Everything happens in one transaction whose heart is a conditional UPDATE:
 * checks → move the price (only if still open and amount ≥ current + 10) → insert the bid → notify the
 * previous leader and the seller. A refusal writes nothing; an accepted bid extends the end (soft close).
 * With an Idempotency-Key, a key seen before answers what it answered then (a different bid under the same
 * key → 422); otherwise the answer, acceptance or refusal, is stored in the same transaction as the bid.
 */
export async function placeBid(ctx: AppContext, bidder: User, input: PlaceBidInput, idem?: IdempotencyKey): Promise<BidResult> {
  const nowMs = Date.now();
  const now = isoAt(nowMs);
  const softMs = ctx.config.softCloseSeconds * 1000;
  const since = isoAt(nowMs - IDEMPOTENCY_TTL_MS);
  if (!idem) {
    // Most bids on a hot auction lose the race. Every refusal reason only ever becomes more true (prices
    // only rise, an ended or deleted auction stays so, the seller never changes), so a refusal read outside
    // the transaction is the answer the transaction would give: no write lock, no UPDATE, no re-read
    // (docs/performance.md, B1). With an Idempotency-Key the answer must be stored, so it goes the long way.
    const refusal = refusalFor(await findBidGate(ctx.db, input.auction_item_id), bidder.id, input.amount, nowMs);
    if (refusal) throw toError(refusal);
  }
  let outcome: Decision;
  try {
    outcome = await ctx.db.transaction().execute(async (tx): Promise<Decision> => {
      if (idem) {
        const stored = await findIdempotentAnswer(tx, bidder.id, idem.key, since);
        if (stored) return replayOf(stored, idem);
      }
      const decided = await decide(tx, bidder, input, nowMs, softMs);
      if (idem) {
        const { status, body } = answerOf(decided);
        await insertIdempotentAnswer(tx, { user_id: bidder.id, key: idem.key, request_hash: idem.hash, status, body, created_at: now });
      }
      return decided;
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // The same key committed by a concurrent request (another connection or node): answer what it answered.
    const stored = idem ? await findIdempotentAnswer(ctx.db, bidder.id, idem.key, since) : undefined;
    if (stored) outcome = replayOf(stored, idem!);
    else {
      // The unique (auction_id, amount) index is the second line of defence: explained like any refusal, from
      // the auction as it is now ("too low" when nothing else applies).
      const auction = await findAuction(ctx.db, input.auction_item_id);
      throw toError(
        refusalFor(auction, bidder.id, input.amount, Date.now()) ?? { refused: 'too_low', current_price: auction?.current_price ?? input.amount },
      );
    }
  }
  if ('keyReused' in outcome) throw new AppError(422, 'idempotency_key_reused', bidTexts.idempotencyKeyReused);
  if ('replay' in outcome) return { replay: outcome.replay };
  if ('refused' in outcome) throw toError(outcome);
  if (outcome.extended) ctx.closer.rearm();
  return { placed: outcome };
}

async function decide(tx: DbOrTx, bidder: User, input: PlaceBidInput, nowMs: number, softMs: number): Promise<PlacedBid | Refusal> {
  const now = isoAt(nowMs);
  const auction = await findAuction(tx, input.auction_item_id);
  const refusal = refusalFor(auction, bidder.id, input.amount, nowMs);
  if (refusal || !auction) return refusal ?? { refused: 'not_found' };

  const state = await acceptBidUpdate(tx, {
    auctionId: auction.id,
    amount: input.amount,
    now,
    extendTo: softMs > 0 ? isoAt(nowMs + softMs) : null,
  });
  // Someone got there first (or the end passed): explain with the auction as it is now.
  if (!state) {
    const fresh = await findAuction(tx, auction.id);
    return refusalFor(fresh, bidder.id, input.amount, nowMs) ?? { refused: 'ended', current_price: fresh?.current_price ?? auction.current_price };
  }

  // Read after the UPDATE: on a database with row locks the leader cannot change under us any more.
  const previous = await findLeadingBid(tx, auction.id);
  const row = await insertBid(tx, { auction_id: auction.id, bidder_id: bidder.id, amount: input.amount, created_at: now });
  const bid = presentBid({ ...row, bidder_name: bidder.first_name });
  const ref = { id: auction.id, title: auction.title };
  const notifications: NotificationChange[] = [];
  if (previous && previous.bidder_id !== bidder.id) {
    notifications.push(await notifyOutbid(tx, previous.bidder_id, ref, input.amount, now));
  }
  notifications.push(await notifyNewBid(tx, auction.seller_id, ref, bidder.first_name, input.amount, nowMs));
  const events: DomainEvent[] = [{ type: 'bid:placed', payload: presentBidPlacedEvent(bid, state) }, ...notificationEvents(notifications)];
  return { bid, state, extended: state.end_date !== auction.end_date, events };
}
