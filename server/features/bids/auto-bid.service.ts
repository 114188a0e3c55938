import type { AppContext } from '../../context';
import type { User } from '../../db/types';
import type { AutoBidInput, AutoBidResponse } from '@shared/schemas/autobid';
import { resolveBid } from '@shared/rules/auto-bid';
import { findBidGate, findMaxGate, findOwnActiveMax } from './bids.repository';
import { presentAutoBid } from './bids.presenter';
import { outcomeRefusal, refusalFor, toError, type Refusal } from './bid-refusals';
import { decideBid, lockedPrice, rulesState } from './bid-decision';
import { unitOfWork } from '../../unit-of-work';
import { sawPrice } from './bid-lanes';
import { refused, type BidResult } from './bid-result';

/**
 * What PUT answers: the owner's own maximum (the only place besides GET that names it) with the auction after
 * the rows it wrote, or a refusal (the message under `max_amount`, AutoBidRefusalResponse).
 */
export type SetMaxResult = BidResult<AutoBidResponse>;

const refusedMax = (r: Refusal) => refused(toError(r, 'max_amount'));

/**
 * Sets or raises the caller's maximum on an auction (PUT /api/auctions/{id}/auto-bid/, docs/bidding.md): the
 * same transaction as a bid (auction row locked, shared/rules/auto-bid.ts decides, rows and notifications
 * written, published after the commit). Returns one result and never throws for a rule.
 */
export async function setAutoBid(ctx: AppContext, bidder: User, auctionId: number, input: AutoBidInput): Promise<SetMaxResult> {
  const nowMs = Date.now();
  const gate = await findMaxGate(ctx.db, auctionId, bidder.id);
  const early = refusalFor(gate, bidder.id, null, nowMs);
  if (early || !gate) return refusedMax(early ?? { refused: 'not_found' });
  // On a hot auction most maxima arrive after the price has passed them (docs/performance.md, B1auto). A
  // maximum the rules refuse without writing a row (too low, or the leader lowering its own) is refused here,
  // without the write lock: the gate is one statement, so the price, the leader and the active maximum are one
  // moment of the auction, and the refusal is the rules' answer at that moment, inside this request. Anything
  // that would write goes the long way, decided again under the lock.
  const quick = resolveBid(rulesState(gate.current_price, gate.leader_id, gate.active), { kind: 'max', amount: input.max_amount, bidder: bidder.id });
  const refusal = outcomeRefusal(quick);
  if (refusal && !quick.rows.length) return refusedMax(refusal);
  const softMs = ctx.config.softCloseSeconds * 1000;
  const action = { kind: 'max' as const, amount: input.max_amount };
  // In the auction's lane like a bid (bid-lanes.ts); a maximum's minimum depends on the leader, so it is not
  // refused from the lane's price, but the price it saw under the lock is left for the bids behind it.
  const decided = await ctx.bidLanes.run(auctionId, async (lane) => {
    const d = await unitOfWork(ctx, (tx) => decideBid(tx, bidder, auctionId, action, nowMs, softMs), {
      wrote: (r) => !('refused' in r),
      events: (r) => ('refused' in r ? null : r.events),
    });
    sawPrice(lane, lockedPrice(d));
    return d;
  });
  if ('refused' in decided) return refusedMax(decided);
  if (decided.extended) ctx.closer.rearm();
  if (decided.refusal) return { outcome: 'refused', error: toError(decided.refusal, 'max_amount'), events: decided.events };
  return { outcome: 'accepted', body: presentAutoBid(input.max_amount, decided.after, decided.leading), events: decided.events };
}

/** The caller's own active maximum on an auction (null: none, or beaten); 404 for an unknown auction. */
export async function getAutoBid(ctx: AppContext, userId: number, auctionId: number): Promise<number | null> {
  if (!(await findBidGate(ctx.db, auctionId, userId))) throw toError({ refused: 'not_found' });
  return findOwnActiveMax(ctx.db, auctionId, userId);
}
