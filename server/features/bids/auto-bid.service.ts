import type { AppContext } from '../../context';
import type { User } from '../../db/types';
import type { AutoBidInput, AutoBidResponse } from '@shared/schemas/autobid';
import type { DomainEvent } from '../../realtime/events';
import { findBidGate, findLeadingBid, findOwnActiveMax } from './bids.repository';
import { minNextBid } from '@shared/rules/bids';
import { presentAutoBid } from './bids.presenter';
import { refusalFor, toError } from './bid-refusals';
import { decideBid } from './bid-decision';

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
  // Refused before the transaction, like a bid's quick refusals: what stays true (the seller, an ended or
  // missing auction), and a maximum below price + 10 from a bidder who does not lead. Prices only rise and only
  // the caller's own request could make it the leader, so that refusal was the rules' answer when it was read;
  // the leader's own maximum (raise, only_raise) always goes the long way. On a hot auction most maxima arrive
  // after the price has passed them (docs/performance.md, B1auto): no write lock for those.
  const gate = await findBidGate(ctx.db, auctionId);
  const early = refusalFor(gate, bidder.id, null, nowMs);
  if (early) throw toError(early, 'max_amount');
  if (gate && input.max_amount < minNextBid(gate.current_price) && (await findLeadingBid(ctx.db, auctionId))?.bidder_id !== bidder.id) {
    throw toError({ refused: 'too_low', current_price: gate.current_price }, 'max_amount');
  }
  const softMs = ctx.config.softCloseSeconds * 1000;
  const action = { kind: 'max' as const, amount: input.max_amount };
  const decided = await ctx.db.transaction().execute((tx) => decideBid(tx, bidder, auctionId, action, nowMs, softMs));
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
