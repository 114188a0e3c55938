import type { AppContext } from '../../context';
import type { DbOrTx, User } from '../../db/types';
import { isoAt } from '../../lib/time';
import { AppError, errorBody } from '../../http/errors';
import { bidTexts } from '@shared/texts/bids';
import { NO_EVENTS, notificationEvents, type DomainEvent } from '../../events';
import { unitOfWork } from '../../unit-of-work';
import { isUniqueViolation } from '../../db/dialect';
import type { BuyNowResponse } from '@shared/schemas/auctions';
import { markSold } from '../auctions/closing.repository';
import { notifyEnded } from '../auctions/closing.notifications';
import { closedEvent } from '../auctions/closing';
import { acceptBidRows, findBuyNowGate, findIdempotentAnswer, insertBuyNowBid, insertIdempotentAnswer, lockAuction, IDEMPOTENCY_TTL_MS } from './bids.repository';
import { presentBid, presentBidPlacedEvent } from './bids.presenter';
import { buyNowRefusalFor, toBuyNowError, type Refusal } from './bid-refusals';
import { refused, type BidResult, type Replay } from './bid-result';
import { sawPrice } from './bid-lanes';
import type { IdempotencyKey } from './bids.service';

/** What POST /api/auctions/{id}/buy-now/ answers: 201 `{auction_id, price, winner}`, a refusal, or a replay. */
export type BuyNowResult = BidResult<BuyNowResponse>;

interface Bought {
  body: BuyNowResponse;
  events: DomainEvent[];
}

type Decision = Bought | Refusal | { replay: Replay } | { keyReused: true };

/**
 * "Kupi odmah" (issue 25, docs/bidding.md): in the auction's bid lane and under its row lock, like a bid and
 * the closer. Open, no bid and a buy-now price (shared/rules/buy-now.ts), and not the seller's own: one row at
 * the buy-now price (`buy_now` 1; its own seq, `bid_count` 1, no soft-close extension), then the auction ends
 * now sold to the buyer (the next seq), with the close's notifications (`won` to the buyer, `auction_ended` to
 * the seller, once). After the commit: `bid:placed`, then `auction:closed`, then the notifications. A bid or a
 * maximum first at the lock takes the option away; one after it is refused as ended. With an Idempotency-Key
 * the answer is stored in the same transaction and replayed, as for a bid.
 */
export async function buyNow(ctx: AppContext, buyer: User, auctionId: number, idem?: IdempotencyKey): Promise<BuyNowResult> {
  const nowMs = Date.now();
  if (!idem) {
    // What is refused without the lock stays refused (an ended auction stays ended, a bid is never taken back).
    const early = buyNowRefusalFor(await findBuyNowGate(ctx.db, auctionId, buyer.id), buyer.id, nowMs);
    if (early) return refused(toBuyNowError(early));
  }
  const decision = await ctx.bidLanes.run(auctionId, async (lane): Promise<Decision> => {
    if (!idem && lane.ended && lane.price !== null) return { refused: 'ended', current_price: lane.price };
    const d = await runTransaction(ctx, buyer, auctionId, nowMs, idem);
    if ('body' in d) {
      lane.ended = true;
      sawPrice(lane, d.body.price);
    }
    return d;
  });
  return resultOf(decision);
}

function resultOf(d: Decision): BuyNowResult {
  if ('keyReused' in d) return refused(new AppError(422, 'idempotency_key_reused', bidTexts.idempotencyKeyReused));
  if ('replay' in d) return { outcome: 'replayed', replay: d.replay, events: NO_EVENTS };
  if ('refused' in d) return refused(toBuyNowError(d));
  return { outcome: 'accepted', body: d.body, events: d.events };
}

function storedAnswer(d: Decision): Replay {
  const r = resultOf(d);
  if (r.outcome === 'accepted') return { status: 201, body: JSON.stringify(r.body) };
  if (r.outcome === 'refused') return { status: r.error.status, body: JSON.stringify(errorBody(r.error)) };
  return r.replay;
}

async function runTransaction(ctx: AppContext, buyer: User, auctionId: number, nowMs: number, idem?: IdempotencyKey): Promise<Decision> {
  const since = isoAt(nowMs - IDEMPOTENCY_TTL_MS);
  try {
    return await unitOfWork(
      ctx,
      async (tx): Promise<Decision> => {
        if (idem) {
          const stored = await findIdempotentAnswer(tx, buyer.id, idem.key, since);
          if (stored) return stored.request_hash === idem.hash ? { replay: { status: stored.status, body: stored.body } } : { keyReused: true };
        }
        const d = await decideBuyNow(tx, buyer, auctionId, nowMs);
        if (idem) await insertIdempotentAnswer(tx, { user_id: buyer.id, key: idem.key, request_hash: idem.hash, ...storedAnswer(d), created_at: isoAt(nowMs) });
        return d;
      },
      { wrote: (d) => 'body' in d || (!!idem && 'refused' in d), events: (d) => ('body' in d ? d.events : null) },
    );
  } catch (err) {
    if (!isUniqueViolation(err) || !idem) throw err;
    // The same key committed by a concurrent request: answer what it answered.
    const stored = await findIdempotentAnswer(ctx.db, buyer.id, idem.key, since);
    if (!stored) throw err;
    return stored.request_hash === idem.hash ? { replay: { status: stored.status, body: stored.body } } : { keyReused: true };
  }
}

/** Under the auction's row lock: refuse, or write the row, end the auction and notify. */
async function decideBuyNow(tx: DbOrTx, buyer: User, auctionId: number, nowMs: number): Promise<Bought | Refusal> {
  const auction = await lockAuction(tx, auctionId, buyer.id);
  const refusal = buyNowRefusalFor(auction, buyer.id, nowMs);
  if (refusal || !auction || auction.buy_now_price === null) return refusal ?? { refused: 'not_found' };
  const now = isoAt(nowMs);
  const price = auction.buy_now_price;
  const states = await acceptBidRows(tx, { auctionId, amounts: [price], now, extendTo: null });
  if (!states) throw new Error(`auction ${auctionId}: buy-now row refused under its lock`);
  const row = await insertBuyNowBid(tx, { auction_id: auctionId, bidder_id: buyer.id, amount: price, created_at: now });
  const sold = await markSold(tx, auctionId, buyer.id, now);
  if (!sold) throw new Error(`auction ${auctionId}: not active under its lock`);
  const bid = presentBid({ ...row, bidder_name: buyer.first_name });
  const notifications = await notifyEnded(tx, sold, now);
  const events: DomainEvent[] = [{ type: 'bid:placed', payload: presentBidPlacedEvent(bid, states[0]!, auction.reserve_price) }, closedEvent(sold), ...notificationEvents(notifications)];
  return { body: { auction_id: auctionId, price, winner: buyer.id }, events };
}
