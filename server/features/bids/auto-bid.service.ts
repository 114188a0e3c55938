import type { AppContext } from '../../context';
import type { User } from '../../db/types';
import type { AutoBidInput, AutoBidResponse } from '@shared/schemas/autobid';
import type { DomainEvent } from '../../realtime/events';
import { resolveBid } from '@shared/rules/auto-bid';
import { findBidGate, findMaxGate, findOwnActiveMax } from './bids.repository';
import { presentAutoBid } from './bids.presenter';
import { outcomeRefusal, refusalFor, toError } from './bid-refusals';
import { decideBid, lockedPrice, rulesState } from './bid-decision';
import { transactUnlessReadOnly } from '../../db/transactions';
import { sawPrice } from './bid-lanes';

export interface SetMax {
  /** The owner's answer (the only place besides GET that names the maximum). */
  answer: AutoBidResponse;
  /** To publish after the commit: `bid:placed` per row it wrote in seq order, then the notifications. */
  events: DomainEvent[];
}

/**
 * Sets or raises the caller's maximum on an auction (PUT /api/auctions/{id}/auto-bid/, docs/bidding.md): the
 * same transaction as a bid (auction row locked, shared/rules/auto-bid.ts decides, rows and notifications
 * written). Refusals are thrown as AppError with the message under `max_amount` (AutoBidRefusalResponse).
 */
export async function setAutoBid(ctx: AppContext, bidder: User, auctionId: number, input: AutoBidInput): Promise<SetMax> {
  const nowMs = Date.now();
  const gate = await findMaxGate(ctx.db, auctionId);
  const early = refusalFor(gate, bidder.id, null, nowMs);
  if (early || !gate) throw toError(early ?? { refused: 'not_found' }, 'max_amount');
  // On a hot auction most maxima arrive after the price has passed them (docs/performance.md, B1auto). A
  // maximum the rules refuse without writing a row (too low, or the leader lowering its own) is refused here,
  // without the write lock: the gate is one statement, so the price, the leader and the active maximum are one
  // moment of the auction, and the refusal is the rules' answer at that moment, inside this request. Anything
  // that would write goes the long way, decided again under the lock.
  const quick = resolveBid(rulesState(gate.current_price, gate.leader_id, gate.active), { kind: 'max', amount: input.max_amount, bidder: bidder.id });
  const refused = outcomeRefusal(quick);
  if (refused && !quick.rows.length) throw toError(refused, 'max_amount');
  const softMs = ctx.config.softCloseSeconds * 1000;
  const action = { kind: 'max' as const, amount: input.max_amount };
  // In the auction's lane like a bid (bid-lanes.ts); a maximum's minimum depends on the leader, so it is not
  // refused from the lane's price, but the price it saw under the lock is left for the bids behind it.
  const decided = await ctx.bidLanes.run(auctionId, async (lane) => {
    const d = await transactUnlessReadOnly(ctx.db, (tx) => decideBid(tx, bidder, auctionId, action, nowMs, softMs), (r) => !('refused' in r));
    sawPrice(lane, lockedPrice(d));
    return d;
  });
  if ('refused' in decided) throw toError(decided, 'max_amount');
  if (decided.refusal) throw toError(decided.refusal, 'max_amount');
  if (decided.extended) ctx.closer.rearm();
  return { answer: presentAutoBid(input.max_amount, decided.after, decided.leading), events: decided.events };
}

/** The caller's own active maximum on an auction (null: none, or beaten); 404 for an unknown auction. */
export async function getAutoBid(ctx: AppContext, userId: number, auctionId: number): Promise<number | null> {
  if (!(await findBidGate(ctx.db, auctionId))) throw toError({ refused: 'not_found' });
  return findOwnActiveMax(ctx.db, auctionId, userId);
}
