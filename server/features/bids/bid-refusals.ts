import { AppError } from '../../http/errors';
import { minNextBid, isOpen } from '@shared/rules/bids';
import { sr } from '@shared/texts/sr';
import { bidTexts } from '@shared/texts/bids';
import { autoBidTexts } from '@shared/texts/auto-bid';
import type { AutoBidOutcome } from '@shared/rules/auto-bid';
import type { BidGate } from './bids.repository';
import { auctionTexts } from '@shared/texts/auctions';
import { buyNowAvailable } from '@shared/rules/buy-now';
import { blockTexts } from '@shared/texts/blocks';

/** Why a bid or a maximum is refused; every refusal on an existing auction knows the price it was refused at. */
export type Refusal =
  | { refused: 'not_found' }
  | { refused: 'own' | 'blocked_by_seller' | 'ended' | 'too_low' | 'auto_bid_active' | 'only_raise' | 'buy_now_unavailable'; current_price: number };

/**
 * Why the (re-read) auction cannot take a bid of `amount` now, or null when it could. With `amount` null (a
 * maximum: its minimum depends on who holds which maximum, shared/rules/auto-bid.ts) only the seller, a block
 * by the seller (issue 24, read with the auction: BidGate's `blocked`) and the end are checked.
 */
export function refusalFor(auction: BidGate | undefined, bidderId: number, amount: number | null, nowMs: number): Refusal | null {
  if (!auction) return { refused: 'not_found' };
  const { current_price } = auction;
  if (auction.seller_id === bidderId) return { refused: 'own', current_price };
  if (auction.blocked) return { refused: 'blocked_by_seller', current_price };
  if (auction.status !== 'active' || !isOpen(auction.end_date, nowMs)) return { refused: 'ended', current_price };
  if (amount !== null && amount < minNextBid(current_price)) return { refused: 'too_low', current_price };
  return null;
}

/**
 * Why an auction cannot be bought now with "Kupi odmah" (issue 25, shared/rules/buy-now.ts), or null: missing,
 * the buyer's own, ended (the ordinary refusal, as for a bid), or no longer offering it (a bid came first, or
 * it never had a buy-now price). A member the seller blocked (issue 24) is refused here too (refusalFor):
 * `blocked_by_seller`, after `own` and before `ended`.
 */
export function buyNowRefusalFor(auction: (BidGate & { bid_count: number; buy_now_price: number | null }) | undefined, buyerId: number, nowMs: number): Refusal | null {
  const refusal = refusalFor(auction, buyerId, null, nowMs);
  if (refusal || !auction) return refusal;
  const options = { open: true, bidCount: auction.bid_count, buyNowPrice: auction.buy_now_price };
  return buyNowAvailable(options) ? null : { refused: 'buy_now_unavailable', current_price: auction.current_price };
}

/** A refusal of "Kupi odmah" as its answer: the plain error shape (no amount field, no minimum). */
export function toBuyNowError(r: Refusal): AppError {
  if (r.refused === 'not_found') return AppError.notFound();
  if (r.refused === 'buy_now_unavailable') return AppError.badRequest(auctionTexts.buyNowUnavailable, undefined, 'buy_now_unavailable');
  const [code, message] = CODES[r.refused as 'own' | 'blocked_by_seller' | 'ended'];
  return AppError.badRequest(message, undefined, code);
}

/** The refusal of the rules' outcome, at the price after the rows it wrote (the price the bid was refused at). */
export function outcomeRefusal(outcome: AutoBidOutcome): Refusal | null {
  return outcome.refusal ? { refused: outcome.refusal, current_price: outcome.price } : null;
}

const CODES = {
  own: ['own_auction', bidTexts.ownAuction],
  blocked_by_seller: ['blocked_by_seller', blockTexts.blockedBySeller],
  ended: ['auction_ended', bidTexts.ended],
  auto_bid_active: ['auto_bid_active', autoBidTexts.activeMaximum],
  only_raise: ['max_only_raise', autoBidTexts.onlyRaise],
} as const;

/**
 * The one place a refusal becomes its answer (fast path, transaction, stored Idempotency-Key answer alike).
 * A refusal on an existing auction carries `current_price` and `min_amount` (= minNextBid(current_price),
 * the smallest bid the auction would take now if it were open) as numbers, next to the message under `field`
 * (`amount` for a bid, `max_amount` for a maximum; BidRefusalResponse / AutoBidRefusalResponse); a missing
 * auction is a plain 404.
 */
export function toError(r: Refusal, field: 'amount' | 'max_amount' = 'amount'): AppError {
  if (r.refused === 'not_found') return AppError.notFound();
  const min = minNextBid(r.current_price);
  const extra = { current_price: r.current_price, min_amount: min };
  if (r.refused === 'too_low') return AppError.field(field, sr.detail.minBid(min), 400, 'bid_too_low', extra);
  if (r.refused === 'buy_now_unavailable') return toBuyNowError(r);
  const [code, message] = CODES[r.refused];
  return AppError.field(field, message, 400, code, extra);
}
