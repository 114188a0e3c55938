import type { AppContext } from '../../context';
import type { User } from '../../db/types';
import { AppError, errorBody } from '../../http/errors';
import { isoAt } from '../../lib/time';
import { NO_EVENTS } from '../../events';
import { unitOfWork } from '../../unit-of-work';
import type { PlaceBidInput, PlacedBidResponse } from '@shared/schemas/bids';
import { bidTexts } from '@shared/texts/bids';
import { findAuction } from '../auctions/auctions.repository';
import { findBidGate, findIdempotentAnswer, insertIdempotentAnswer, IDEMPOTENCY_TTL_MS, type StoredAnswer } from './bids.repository';
import { presentPlacedBid } from './bids.presenter';
import { isUniqueViolation } from '../../db/dialect';
import { refusalFor, toError, type Refusal } from './bid-refusals';
import { decideBid, lockedPrice, type Decided } from './bid-decision';
import { refused, type BidResult, type Replay } from './bid-result';
import { sawPrice } from './bid-lanes';
import { deliverBidNotices } from './bid-notices';
import { minNextBid } from '@shared/rules/bids';

export type { Replay } from './bid-result';

/** An Idempotency-Key of one request: the key as sent and a hash of the parsed bid it came with. */
export interface IdempotencyKey {
  key: string;
  hash: string;
}

/** What POST /api/bids/ answers: 201 with the placed bid, a refusal, or the first answer under the same key. */
export type PlaceBidResult = BidResult<PlacedBidResponse>;

type Decision = Decided | Refusal | { replay: Replay } | { keyReused: true };

/** A turn in the lane: what the transaction decided (for the lane's price) and its one result. */
interface Turn {
  decision: Decision;
  result: PlaceBidResult;
}

function resultOf(d: Decision): PlaceBidResult {
  if ('keyReused' in d) return refused(new AppError(422, 'idempotency_key_reused', bidTexts.idempotencyKeyReused));
  if ('replay' in d) return { outcome: 'replayed', replay: d.replay, events: NO_EVENTS };
  if ('refused' in d) return refused(toError(d));
  // Refused after the leader's automatic row at this amount was committed: that row is announced too.
  if (d.refusal) return { outcome: 'refused', error: toError(d.refusal), events: d.events };
  const mine = d.rows.find((r) => !r.bid.auto)!;
  return { outcome: 'accepted', body: presentPlacedBid(mine.bid, d.after, d.leading), events: d.events };
}

const turnOf = (decision: Decision): Turn => ({ decision, result: resultOf(decision) });

/** The answer stored under an Idempotency-Key: exactly the status and body the route sends. */
function storedAnswer(result: PlaceBidResult): Replay {
  if (result.outcome === 'accepted') return { status: 201, body: JSON.stringify(result.body) };
  if (result.outcome === 'refused') return { status: result.error.status, body: JSON.stringify(errorBody(result.error)) };
  return result.replay;
}

function replayOf(stored: StoredAnswer, idem: IdempotencyKey): { replay: Replay } | { keyReused: true } {
  return stored.request_hash === idem.hash ? { replay: { status: stored.status, body: stored.body } } : { keyReused: true };
}

/**
 * Places a manual bid (design.md §4, docs/bidding.md). One transaction locks the auction row, reads the leader
 * and the active maximum, and applies shared/rules/auto-bid.ts: the bid's row, an automatic answer of the
 * leader's maximum, and a notice of its notifications, written after the broadcast (bid-notices.ts). A refusal
 * writes nothing, except a bid equal to the leader's maximum (the leader's row at that amount is written, then
 * the bid is refused as too low). Every row extends the end under soft close. With an Idempotency-Key, a key
 * seen before answers what it answered then (a different bid under the same key → 422); otherwise the answer,
 * acceptance or refusal, is stored in the same transaction.
 * Returns one result and never throws for a rule; its events are published after the commit.
 */
export async function placeBid(ctx: AppContext, bidder: User, input: PlaceBidInput, idem?: IdempotencyKey): Promise<PlaceBidResult> {
  const nowMs = Date.now();
  if (!idem) {
    // Most bids on a hot auction lose the race. Every reason refused here only ever becomes more true (prices
    // only rise, an ended or deleted auction stays so, the seller never changes) and the rules refuse a bid
    // below price + 10 before looking at maxima, so this is the answer the transaction would give: no lock,
    // no write (docs/performance.md, B1). With an Idempotency-Key the answer must be stored: the long way.
    const refusal = refusalFor(await findBidGate(ctx.db, input.auction_item_id, bidder.id), bidder.id, input.amount, nowMs);
    if (refusal) return refused(toError(refusal));
  }
  const turn = await ctx.bidLanes.run(input.auction_item_id, async (lane): Promise<Turn> => {
    // Waited behind a "Kupi odmah" that ended the auction, or behind bids that raised the price past this one:
    // the rules' answer, from the lane.
    if (!idem && lane.ended && lane.price !== null) return turnOf({ refused: 'ended', current_price: lane.price });
    if (!idem && lane.price !== null && input.amount < minNextBid(lane.price)) return turnOf({ refused: 'too_low', current_price: lane.price });
    const t = await runBidTransaction(ctx, bidder, input, nowMs, idem);
    sawPrice(lane, lockedPrice(t.decision));
    return t;
  });
  if ('extended' in turn.decision && turn.decision.extended) ctx.closer.rearm();
  // The notifications after the broadcast (published at the commit), before the answer (bid-notices.ts).
  if ('noticeQueued' in turn.decision && turn.decision.noticeQueued) await deliverBidNotices(ctx, input.auction_item_id);
  return turn.result;
}

async function runBidTransaction(ctx: AppContext, bidder: User, input: PlaceBidInput, nowMs: number, idem?: IdempotencyKey): Promise<Turn> {
  const now = isoAt(nowMs);
  const since = isoAt(nowMs - IDEMPOTENCY_TTL_MS);
  const softMs = ctx.config.softCloseSeconds * 1000;
  try {
    // Committed when it wrote: rows, or the answer stored under an Idempotency-Key. A refusal that wrote
    // nothing (or a replay) is rolled back, which on PostgreSQL frees the auction's row lock without a WAL flush.
    return await unitOfWork(
      ctx,
      async (tx): Promise<Turn> => {
        if (idem) {
          const stored = await findIdempotentAnswer(tx, bidder.id, idem.key, since);
          if (stored) return turnOf(replayOf(stored, idem));
        }
        const turn = turnOf(await decideBid(tx, bidder, input.auction_item_id, { kind: 'manual', amount: input.amount }, nowMs, softMs, true));
        if (idem) {
          const { status, body } = storedAnswer(turn.result);
          await insertIdempotentAnswer(tx, { user_id: bidder.id, key: idem.key, request_hash: idem.hash, status, body, created_at: now });
        }
        return turn;
      },
      { wrote: (t) => 'rows' in t.decision || (!!idem && 'refused' in t.decision), events: (t) => t.result.events },
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // The same key committed by a concurrent request (another connection or node): answer what it answered.
    const stored = idem ? await findIdempotentAnswer(ctx.db, bidder.id, idem.key, since) : undefined;
    if (stored) return turnOf(replayOf(stored, idem!));
    // The unique (auction_id, amount) index is the second line of defence: explained like any refusal, from
    // the auction as it is now ("too low" when nothing else applies).
    const auction = await findAuction(ctx.db, input.auction_item_id);
    return turnOf(refusalFor(auction, bidder.id, input.amount, Date.now()) ?? { refused: 'too_low', current_price: auction?.current_price ?? input.amount });
  }
}
