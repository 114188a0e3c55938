import type { AppContext } from '../../context';
import type { User } from '../../db/types';
import { AppError, errorBody } from '../../http/errors';
import { isoAt } from '../../lib/time';
import { bidTexts, type BidResponse, type PlaceBidInput } from '@shared/schemas/bids';
import { findAuction } from '../auctions/auctions.repository';
import type { DomainEvent } from '../../realtime/events';
import { findBidGate, findIdempotentAnswer, insertIdempotentAnswer, IDEMPOTENCY_TTL_MS, type AcceptedState, type StoredAnswer } from './bids.repository';
import { presentPlacedBid } from './bids.presenter';
import { isUniqueViolation } from '../../db/dialect';
import { refusalFor, toError, type Refusal } from './bid-refusals';
import { decideBid, lockedPrice, type Decided } from './bid-decision';
import { sawPrice } from './bid-lanes';
import { minNextBid } from '@shared/rules/bids';
import { transactUnlessReadOnly } from '../../db/transactions';

export interface PlacedBid {
  bid: BidResponse;
  /** The auction after the request: after an automatic answer of the leader's maximum, when there was one. */
  state: AcceptedState;
  /** The bidder leads afterwards (false when the leader's maximum answered at once). */
  leading: boolean;
  /** Soft close moved the end. */
  extended: boolean;
  /** To publish after the commit: `bid:placed` per row in seq order, then the notifications. */
  events: DomainEvent[];
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

/**
 * Placed, replayed, or refused after writing rows (a bid equal to the leader's maximum: the leader's
 * automatic row was committed, its events are to be published after the refusal is answered). Any other
 * refusal is thrown as an AppError.
 */
export type BidResult =
  | { placed: PlacedBid; replay?: undefined; refused?: undefined }
  | { replay: Replay; placed?: undefined; refused?: undefined }
  | { refused: AppError; events: DomainEvent[]; placed?: undefined; replay?: undefined };

type Decision = Decided | Refusal | { replay: Replay } | { keyReused: true };

function placedOf(d: Decided): PlacedBid {
  const mine = d.rows.find((r) => !r.bid.auto)!;
  return { bid: mine.bid, state: d.after, leading: d.leading, extended: d.extended, events: d.events };
}

function answerOf(outcome: Decided | Refusal): Replay {
  const refusal = 'refused' in outcome ? outcome : outcome.refusal;
  if (refusal) {
    const err = toError(refusal);
    return { status: err.status, body: JSON.stringify(errorBody(err)) };
  }
  const placed = placedOf(outcome as Decided);
  return { status: 201, body: JSON.stringify(presentPlacedBid(placed.bid, placed.state, placed.leading)) };
}

function replayOf(stored: StoredAnswer, idem: IdempotencyKey): { replay: Replay } | { keyReused: true } {
  return stored.request_hash === idem.hash ? { replay: { status: stored.status, body: stored.body } } : { keyReused: true };
}

/**
 * Places a manual bid (design.md §4, docs/bidding.md). One transaction locks the auction row, reads the leader
 * and the active maximum, and applies shared/rules/auto-bid.ts: the bid's row, an automatic answer of the
 * leader's maximum, the notifications. A refusal writes nothing, except a bid equal to the leader's maximum
 * (the leader's row at that amount is written, then the bid is refused as too low). Every row extends the end
 * under soft close. With an Idempotency-Key, a key seen before answers what it answered then (a different bid
 * under the same key → 422); otherwise the answer, acceptance or refusal, is stored in the same transaction.
 */
export async function placeBid(ctx: AppContext, bidder: User, input: PlaceBidInput, idem?: IdempotencyKey): Promise<BidResult> {
  const nowMs = Date.now();
  if (!idem) {
    // Most bids on a hot auction lose the race. Every reason refused here only ever becomes more true (prices
    // only rise, an ended or deleted auction stays so, the seller never changes) and the rules refuse a bid
    // below price + 10 before looking at maxima, so this is the answer the transaction would give: no lock,
    // no write (docs/performance.md, B1). With an Idempotency-Key the answer must be stored: the long way.
    const refusal = refusalFor(await findBidGate(ctx.db, input.auction_item_id), bidder.id, input.amount, nowMs);
    if (refusal) throw toError(refusal);
  }
  const outcome = await ctx.bidLanes.run(input.auction_item_id, async (lane): Promise<Decision> => {
    // Waited behind bids that raised the price past this one: the rules' answer, from the lane's price.
    if (!idem && lane.price !== null && input.amount < minNextBid(lane.price)) return { refused: 'too_low', current_price: lane.price };
    const decision = await runBidTransaction(ctx, bidder, input, nowMs, idem);
    sawPrice(lane, lockedPrice(decision));
    return decision;
  });
  if ('keyReused' in outcome) throw new AppError(422, 'idempotency_key_reused', bidTexts.idempotencyKeyReused);
  if ('replay' in outcome) return { replay: outcome.replay };
  if ('refused' in outcome) throw toError(outcome);
  if (outcome.extended) ctx.closer.rearm();
  if (outcome.refusal) return { refused: toError(outcome.refusal), events: outcome.events };
  return { placed: placedOf(outcome) };
}

async function runBidTransaction(ctx: AppContext, bidder: User, input: PlaceBidInput, nowMs: number, idem?: IdempotencyKey): Promise<Decision> {
  const now = isoAt(nowMs);
  const since = isoAt(nowMs - IDEMPOTENCY_TTL_MS);
  const softMs = ctx.config.softCloseSeconds * 1000;
  try {
    // Committed when it wrote: rows, or the answer stored under an Idempotency-Key. A refusal that wrote
    // nothing (or a replay) is rolled back, which on PostgreSQL frees the auction's row lock without a WAL flush.
    return await transactUnlessReadOnly(
      ctx.db,
      async (tx): Promise<Decision> => {
        if (idem) {
          const stored = await findIdempotentAnswer(tx, bidder.id, idem.key, since);
          if (stored) return replayOf(stored, idem);
        }
        const decided = await decideBid(tx, bidder, input.auction_item_id, { kind: 'manual', amount: input.amount }, nowMs, softMs);
        if (idem) {
          const { status, body } = answerOf(decided);
          await insertIdempotentAnswer(tx, { user_id: bidder.id, key: idem.key, request_hash: idem.hash, status, body, created_at: now });
        }
        return decided;
      },
      (d) => 'rows' in d || (!!idem && 'refused' in d),
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // The same key committed by a concurrent request (another connection or node): answer what it answered.
    const stored = idem ? await findIdempotentAnswer(ctx.db, bidder.id, idem.key, since) : undefined;
    if (stored) return replayOf(stored, idem!);
    // The unique (auction_id, amount) index is the second line of defence: explained like any refusal, from
    // the auction as it is now ("too low" when nothing else applies).
    const auction = await findAuction(ctx.db, input.auction_item_id);
    return refusalFor(auction, bidder.id, input.amount, Date.now()) ?? { refused: 'too_low', current_price: auction?.current_price ?? input.amount };
  }
}
