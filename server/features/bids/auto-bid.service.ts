import type { AppContext } from '../../context';
import type { User } from '../../db/types';
import type { AutoBidInput, AutoBidResponse } from '@shared/schemas/autobid';
import type { DomainEvent } from '../../realtime/events';
import { findBidGate, findOwnActiveMax } from './bids.repository';
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
  // Only what stays true (the seller, an ended or missing auction) is refused before the transaction: the
  // minimum of a maximum depends on who holds which maximum.
  const early = refusalFor(await findBidGate(ctx.db, auctionId), bidder.id, null, nowMs);
  if (early) throw toError(early, 'max_amount');
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
