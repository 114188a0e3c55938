/**
 * Sales and ratings (issue 23): limits and the pure rules both sides use. Free of zod, so the client's pages
 * can import them without the schema bundle.
 */

/** A rating's comment, after trimming: at most this many characters. */
export const RATING_COMMENT_MAX = 300;
/** A negative rating must say why: at least this many characters (trimmed). */
export const NEGATIVE_COMMENT_MIN = 10;
/** The rated member's one answer: 1 to this many characters (trimmed). */
export const REPLY_MAX = 300;
/** RATING_WINDOW_DAYS when unset: auction days after the end during which both sides may rate. */
export const DEFAULT_RATING_WINDOW_DAYS = 30;

export const RATING_VALUES = ['positive', 'negative'] as const;
export type RatingValue = (typeof RATING_VALUES)[number];
export const SALE_ROLES = ['buyer', 'seller'] as const;
export type SaleRole = (typeof SALE_ROLES)[number];

/**
 * The last moment a sale can be rated: its end plus `windowDays` auction days (a day is AUCTION_DAY_SECONDS,
 * as for auction durations), as ISO-8601 UTC.
 */
export function rateUntil(endedAt: string, windowDays: number, daySeconds: number): string {
  return new Date(Date.parse(endedAt) + windowDays * daySeconds * 1000).toISOString();
}

/** Whether the rating window of a sale is still open at `now` (ms). */
export function ratingWindowOpen(rateUntilIso: string, now: number): boolean {
  return now <= Date.parse(rateUntilIso);
}

/** round(100 × positive / (positive + negative)); null without ratings. */
export function percentPositive(positive: number, negative: number): number | null {
  const total = positive + negative;
  return total === 0 ? null : Math.round((100 * positive) / total);
}
