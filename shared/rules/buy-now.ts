import { MIN_BID_INCREMENT } from './limits';

/**
 * "Kupi odmah" and the hidden reserve (issue 25; the rules with examples are in docs/bidding.md). What an
 * auction's options allow, decided once here: the server calls these under the auction's lock (buy-now) and
 * in its close, the presenter for what cards and the detail show. The reserve's effect on automatic bids is
 * shared/rules/auto-bid.ts (meetReserve).
 */

/** How an ended auction ended: `sold` (a winner), `unsold` (no bids), `reserve_not_met` (bids, all below the reserve). */
export const AUCTION_OUTCOMES = ['sold', 'unsold', 'reserve_not_met'] as const;
export type AuctionOutcome = (typeof AUCTION_OUTCOMES)[number];

/** The smallest buy-now price or reserve a seller may set: the starting price + 10. */
export function minOptionPrice(startingPrice: number): number {
  return startingPrice + MIN_BID_INCREMENT;
}

/** What a create form's two options break, by field (null when fine); both whole dinars, null = not set. */
export function optionProblems(startingPrice: number, buyNow: number | null, reserve: number | null): { buy_now_price?: 'too_low'; reserve_price?: 'too_low' | 'above_buy_now' } {
  const out: { buy_now_price?: 'too_low'; reserve_price?: 'too_low' | 'above_buy_now' } = {};
  if (buyNow !== null && buyNow < minOptionPrice(startingPrice)) out.buy_now_price = 'too_low';
  if (reserve !== null && reserve < minOptionPrice(startingPrice)) out.reserve_price = 'too_low';
  else if (reserve !== null && buyNow !== null && reserve > buyNow) out.reserve_price = 'above_buy_now';
  return out;
}

/** An auction as these rules see it. */
export interface OptionsState {
  /** Still taking bids (status active and end_date not passed). */
  open: boolean;
  bidCount: number;
  buyNowPrice: number | null;
}

/**
 * Whether "Kupi odmah" can be used now: the auction is open, has no bid and has a buy-now price. The first
 * accepted bid (manual or automatic) removes the option for good, as does the end.
 */
export function buyNowAvailable(a: OptionsState): boolean {
  return a.open && a.bidCount === 0 && a.buyNowPrice !== null;
}

/** The buy-now price cards and the detail show: null without one, after the first bid, or once ended. */
export function shownBuyNowPrice(a: OptionsState): number | null {
  return buyNowAvailable(a) ? a.buyNowPrice : null;
}

/**
 * Whether the reserve is met at `price` (null without a reserve). Without bids the price is the starting
 * price, below any reserve (a reserve is at least the start + 10).
 */
export function reserveMet(price: number, bidCount: number, reserve: number | null): boolean | null {
  if (reserve === null) return null;
  return bidCount > 0 && price >= reserve;
}

/** How an auction that closes now ends, and whether its highest bidder wins. */
export function closeOutcome(price: number, bidCount: number, reserve: number | null): AuctionOutcome {
  if (bidCount === 0) return 'unsold';
  return reserveMet(price, bidCount, reserve) === false ? 'reserve_not_met' : 'sold';
}
