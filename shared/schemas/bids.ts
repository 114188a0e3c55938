import { z } from 'zod';
import { bidTexts } from '../texts/bids';
import { AUCTION_OUTCOMES } from '../rules/buy-now';

/** The largest bid the server accepts (whole dinars); keeps sums far from float trouble. */
export const MAX_BID_AMOUNT = 1_000_000_000_000;
/** The longest id list POST /api/users/ answers. */
export const MAX_USER_IDS = 500;

/** A positive whole id, sent as a number or a numeric string (forms send strings). */
export const idField = (message: string) =>
  z.union([z.number(), z.string()], { error: message }).transform((v, ctx) => {
    const n = typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : v;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return n;
  });

/** A bid amount: whole dinars, as a number or a numeric string. The minimum is checked by the server's rules. */
export const BidAmount = z.unknown().transform((v, ctx): number => {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
    ctx.addIssue({ code: 'custom', message: bidTexts.amountRequired });
    return z.NEVER;
  }
  let n = NaN;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^[+-]?\d+(\.\d+)?$/.test(v.trim())) n = Number(v.trim());
  if (!Number.isFinite(n) || !Number.isInteger(n)) {
    ctx.addIssue({ code: 'custom', message: bidTexts.amountWhole });
    return z.NEVER;
  }
  if (n > MAX_BID_AMOUNT) {
    ctx.addIssue({ code: 'custom', message: bidTexts.amountTooLarge });
    return z.NEVER;
  }
  return n;
});

export const PlaceBidInput = z.object({
  auction_item_id: idField(bidTexts.auctionInvalid),
  amount: BidAmount,
});
export type PlaceBidInput = z.infer<typeof PlaceBidInput>;

/** One line of the bid history (GET /api/bids/{auctionId}/, oldest first). */
export const BidResponse = z.object({
  id: z.number(),
  bidder: z.number(),
  bidder_name: z.string(),
  amount: z.number(),
  created_at: z.string(),
  /** Written by a maximum (automatic bidding, shared/rules/auto-bid.ts), not typed by the bidder. */
  auto: z.boolean(),
  /** The one row of a "Kupi odmah" (issue 25), at the buy-now price; it ended the auction. */
  buy_now: z.boolean(),
});
export type BidResponse = z.infer<typeof BidResponse>;
export const BidListResponse = z.array(BidResponse);

/**
 * 201 answer of POST /api/bids/: the bid plus the auction's new state. A bid answered at once by the leader's
 * maximum is still placed (201), with the price after the answer and `leading: false`.
 */
export const PlacedBidResponse = BidResponse.extend({
  current_price: z.number(),
  bid_count: z.number(),
  end_date: z.string(),
  leading: z.boolean(),
});
export type PlacedBidResponse = z.infer<typeof PlacedBidResponse>;

/**
 * 400 answer of POST /api/bids/ when an existing auction refuses the bid: too low (`bid_too_low`), ended
 * (`auction_ended`), the bidder's own (`own_auction`) or the bidder holds an active maximum there and must raise
 * it instead (`auto_bid_active`); the same body from the quick check before the
 * transaction, from inside it, and as stored for an Idempotency-Key. `current_price` is the price the bid was
 * refused at and `min_amount` = minNextBid(current_price) (shared/rules/bids.ts: current_price + 10), the
 * smallest bid the auction would take if still open; both numbers, so a client can offer again without
 * reading the auction. A missing auction (404), a visitor, an unverified or blocked user (403), a bad body
 * (400 `invalid`) and a rate limit (429) do not carry them.
 */
export const BidRefusalResponse = z.object({
  amount: z.array(z.string()),
  detail: z.string(),
  message: z.string(),
  code: z.enum(['bid_too_low', 'auction_ended', 'own_auction', 'auto_bid_active']),
  current_price: z.number(),
  min_amount: z.number(),
});
export type BidRefusalResponse = z.infer<typeof BidRefusalResponse>;

export const UserNamesInput = z.object({
  ids: z
    .array(idField(bidTexts.idsInvalid), { error: bidTexts.idsInvalid })
    .max(MAX_USER_IDS, bidTexts.tooManyIds),
});
export type UserNamesInput = z.infer<typeof UserNamesInput>;
/** First names in the order of the ids asked: duplicates kept, unknown ids skipped (the original client's shape). */
export const UserNamesResponse = z.array(z.string());
export type UserNamesResponse = z.infer<typeof UserNamesResponse>;

/** Socket event `bid:placed` to room auction:{id}. */
export const BidPlacedEvent = z.object({
  auction_id: z.number(),
  seq: z.number(),
  bid: BidResponse,
  current_price: z.number(),
  bid_count: z.number(),
  end_date: z.string(),
  /** The hidden reserve is met at this row's price (issue 25); null without a reserve. Never the amount. */
  reserve_met: z.boolean().nullable(),
});
export type BidPlacedEvent = z.infer<typeof BidPlacedEvent>;

/** Socket event `auction:closed` to room auction:{id}. */
export const AuctionClosedEvent = z.object({
  auction_id: z.number(),
  seq: z.number(),
  status: z.literal('ended'),
  winner_id: z.number().nullable(),
  final_price: z.number(),
  end_date: z.string(),
  /**
   * How it ended (issue 25): `sold` (winner_id set), `unsold` (no bids) or `reserve_not_met` (bids, none at the
   * reserve: winner_id null). A null winner no longer means only "without bids".
   */
  outcome: z.enum(AUCTION_OUTCOMES),
});
export type AuctionClosedEvent = z.infer<typeof AuctionClosedEvent>;
