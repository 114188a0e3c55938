/**
 * Sales, ratings and public member profiles (issue 23). Every auction that ended with a winner is a sale
 * between its seller and its winner; each side rates the other once, within RATING_WINDOW_DAYS auction days
 * after the end; the rated member may answer once.
 */
import { z } from 'zod';
import { MAX_PAGE_SIZE, PAGE_SIZE } from '../rules/limits';
import { NEGATIVE_COMMENT_MIN, RATING_COMMENT_MAX, RATING_VALUES, REPLY_MAX, SALE_ROLES } from '../rules/sales';
import { salesTexts } from '../texts/sales';
import { Paged, RatingScore } from './auctions';

const intLike = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : v);
const blankToUndefined = (v: unknown) => (v === undefined || v === '' ? undefined : v);

/** `page` (default 1) and `page_size` (default 20, above 100 taken as 100) of every list of this issue. */
export const PageQuery = z.object({
  page: z.preprocess(
    (v) => blankToUndefined(intLike(v)) ?? 1,
    z.number({ error: salesTexts.badPage }).int(salesTexts.badPage).min(1, salesTexts.badPage).max(1_000_000, salesTexts.badPage),
  ),
  page_size: z.preprocess(
    (v) => {
      const n = blankToUndefined(intLike(v)) ?? PAGE_SIZE;
      return typeof n === 'number' && !Number.isNaN(n) ? Math.min(n, MAX_PAGE_SIZE) : n;
    },
    z.number({ error: salesTexts.badPageSize }).int(salesTexts.badPageSize).min(1, salesTexts.badPageSize),
  ),
});
export type PageQuery = z.output<typeof PageQuery>;

/** GET /api/sales/: `role` buyer | seller, none (or blank) = both. */
export const SalesQuery = PageQuery.extend({
  role: z.preprocess(blankToUndefined, z.enum(SALE_ROLES, { error: salesTexts.roleInvalid }).optional()),
});
export type SalesQuery = z.output<typeof SalesQuery>;

/**
 * POST /api/sales/{auction_id}/rating/. `comment` is trimmed (missing = ''), at most 300 characters; a
 * negative rating needs at least 10. Every message goes under its field's name.
 */
export const RatingInput = z
  .object({
    value: z.enum(RATING_VALUES, { error: salesTexts.valueInvalid }),
    comment: z
      .string({ error: salesTexts.commentInvalid })
      .trim()
      .max(RATING_COMMENT_MAX, salesTexts.commentTooLong)
      .optional()
      .transform((c) => c ?? ''),
  })
  .superRefine((r, ctx) => {
    if (r.value === 'negative' && r.comment.length < NEGATIVE_COMMENT_MIN) {
      ctx.addIssue({ code: 'custom', path: ['comment'], message: salesTexts.negativeNeedsReason });
    }
  });
export type RatingInput = z.output<typeof RatingInput>;
export type RatingForm = z.input<typeof RatingInput>;

/** POST /api/ratings/{id}/reply/: 1–300 characters after trimming. */
export const ReplyInput = z.object({
  content: z.string({ error: salesTexts.replyRequired }).trim().min(1, salesTexts.replyRequired).max(REPLY_MAX, salesTexts.replyTooLong),
});
export type ReplyInput = z.output<typeof ReplyInput>;

export const RatingReply = z.object({ content: z.string(), created_at: z.string() });
export type RatingReply = z.infer<typeof RatingReply>;

/** A rating as the sale's two parties see it; the answers of both POSTs. */
export const Rating = z.object({
  id: z.number(),
  value: z.enum(RATING_VALUES),
  comment: z.string(),
  created_at: z.string(),
  reply: RatingReply.nullable(),
});
export type Rating = z.infer<typeof Rating>;

/** The other party of a sale, contact included (only ever shown to the other party of that sale). */
export const SaleCounterpart = z.object({
  id: z.number(),
  first_name: z.string(),
  city: z.string(),
  phone_number: z.string(),
  email: z.string(),
  rating: RatingScore,
  /** Whether the caller has put this member on their block list (issue 24): 'Odblokiraj' instead of 'Blokiraj člana'. */
  blocked_by_viewer: z.boolean(),
});
export type SaleCounterpart = z.infer<typeof SaleCounterpart>;

/** One sale of GET /api/sales/, as the caller (its seller or its winner) sees it. */
export const SaleItem = z.object({
  auction_id: z.number(),
  title: z.string(),
  first_image: z.string().nullable(),
  price: z.number(),
  ended_at: z.string(),
  role: z.enum(SALE_ROLES),
  counterpart: SaleCounterpart,
  my_rating: Rating.nullable(),
  their_rating: Rating.nullable(),
  rate_until: z.string(),
});
export type SaleItem = z.infer<typeof SaleItem>;
export const SalesPage = Paged(SaleItem);

/** GET /api/members/{id}/: public; never an e-mail or a phone. */
export const MemberProfile = z.object({
  id: z.number(),
  first_name: z.string(),
  city: z.string(),
  member_since: z.string(),
  rating: RatingScore.extend({ percent_positive: z.number().nullable() }),
  sold_count: z.number(),
  bought_count: z.number(),
  active_auctions_count: z.number(),
  /** Whether the caller has put this member on their block list (issue 24); false for visitors and oneself. */
  blocked_by_viewer: z.boolean(),
});
export type MemberProfile = z.infer<typeof MemberProfile>;

/** One rating a member got (GET /api/members/{id}/ratings/): `role` is theirs in that sale. */
export const MemberRating = Rating.extend({
  role: z.enum(SALE_ROLES),
  from: z.object({ id: z.number(), first_name: z.string() }),
  /** `id` is null once the auction was deleted; the title stays. */
  auction: z.object({ id: z.number().nullable(), title: z.string() }),
});
export type MemberRating = z.infer<typeof MemberRating>;
export const MemberRatingsPage = Paged(MemberRating);
