import { z } from 'zod';
import { BidAmount } from './bids';

/**
 * Automatic bidding (issue 14, docs/bidding.md): a bidder sets a hidden maximum and the server bids for them,
 * by the rules of shared/rules/auto-bid.ts. A maximum is shown to its owner only (the GET below, the PUT's
 * answer); everyone else sees only the rows it actually bid (`auto: true` in the history and `bid:placed`).
 */

/** Body of PUT /api/auctions/{id}/auto-bid/: the maximum, whole dinars (the same rules and messages as a bid's amount). */
export const AutoBidInput = z.object({ max_amount: BidAmount });
export type AutoBidInput = z.infer<typeof AutoBidInput>;

/** 200 answer of PUT /api/auctions/{id}/auto-bid/: the caller's maximum and the auction after the rows it wrote. */
export const AutoBidResponse = z.object({
  max_amount: z.number(),
  current_price: z.number(),
  bid_count: z.number(),
  leading: z.boolean(),
});
export type AutoBidResponse = z.infer<typeof AutoBidResponse>;

/** 200 answer of GET /api/auctions/{id}/auto-bid/: the caller's own active maximum, or null (none, or beaten). */
export const AutoBidStateResponse = z.object({ max_amount: z.number().nullable() });
export type AutoBidStateResponse = z.infer<typeof AutoBidStateResponse>;

/**
 * 400 answer of PUT /api/auctions/{id}/auto-bid/ when an existing auction refuses the maximum: the shape of
 * BidRefusalResponse with the message under `max_amount`: below current_price + 10 (`bid_too_low`), ended
 * (`auction_ended`), the caller's own auction (`own_auction`), or lower than the caller's active maximum
 * (`max_only_raise`). `current_price` is the price it was refused at, `min_amount` = current_price + 10.
 */
export const AutoBidRefusalResponse = z.object({
  max_amount: z.array(z.string()),
  detail: z.string(),
  message: z.string(),
  code: z.enum(['bid_too_low', 'auction_ended', 'own_auction', 'max_only_raise']),
  current_price: z.number(),
  min_amount: z.number(),
});
export type AutoBidRefusalResponse = z.infer<typeof AutoBidRefusalResponse>;
