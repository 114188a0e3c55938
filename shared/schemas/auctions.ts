import { z } from 'zod';
import { sr } from '../texts/sr';
import { auctionTexts } from '../texts/auctions';
import { listFilterTexts } from '../texts/list-filters';
import { CATEGORY_VALUES } from '../categories';
import {
  AUCTION_DURATIONS,
  AUCTION_PHONE_RE,
  CITY_MAX,
  DEFAULT_AUCTION_DURATION,
  DESCRIPTION_MAX,
  IMAGES_MAX,
  MAX_PAGE_SIZE,
  MIN_STARTING_PRICE,
  TITLE_MAX,
} from '../rules/limits';

const t = sr.create;

const intLike = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v.trim().replace(',', '.')) : v);

/**
 * POST /api/auctionItems/ (multipart or JSON). Strings are trimmed; the price is floored to whole dinars
 * before the minimum is checked; duration defaults to 4 days like the form.
 */
/**
 * An optional whole-dinar option of a new auction ("Kupi odmah" price, reserve; issue 25): floored like the
 * starting price; empty or absent is null (none). Whether it is high enough is checked against the starting
 * price below (optionProblems).
 */
const optionPrice = (message: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null : intLike(v)),
    z
      .number({ error: message })
      .refine((n) => Number.isFinite(n), message)
      .transform((n) => Math.floor(n))
      .pipe(z.number().max(1_000_000_000_000, auctionTexts.priceTooHigh))
      .nullable(),
  );

const OPTION_MESSAGES = {
  buy_now_price: { too_low: auctionTexts.buyNowTooLow },
  reserve_price: { too_low: auctionTexts.reserveTooLow, above_buy_now: auctionTexts.reserveAboveBuyNow },
} as const;

/** The fields an auction's seller writes, parsed alike by create, edit (issue 26, each optional) and relist. */
export const auctionFields = {
  title: z.string({ error: t.titleRequired }).trim().min(1, t.titleRequired).max(TITLE_MAX, auctionTexts.titleTooLong),
  description: z
    .string({ error: t.descriptionRequired })
    .trim()
    .min(1, t.descriptionRequired)
    .max(DESCRIPTION_MAX, auctionTexts.descriptionTooLong),
  current_price: z.preprocess(
    intLike,
    z
      .number({ error: t.minPrice })
      .refine((n) => Number.isFinite(n), t.minPrice)
      .transform((n) => Math.floor(n))
      .pipe(z.number().min(MIN_STARTING_PRICE, t.minPrice).max(1_000_000_000_000, auctionTexts.priceTooHigh)),
  ),
  city: z.string({ error: t.cityRequired }).trim().min(1, t.cityRequired).max(CITY_MAX, auctionTexts.cityTooLong),
  phone_number: z
    .string({ error: t.phoneInvalid })
    .trim()
    .transform((p) => p.replace(/[\s/.-]/g, ''))
    .pipe(z.string().regex(AUCTION_PHONE_RE, t.phoneInvalid)),
  category: z.enum(CATEGORY_VALUES, { error: t.categoryRequired }),
};

/** The auction's duration in days (1, 3, 4 or 7); absent or empty: 4 days like the form. */
export const auctionDuration = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? DEFAULT_AUCTION_DURATION : intLike(v)),
  z.number({ error: auctionTexts.durationInvalid }).refine((n) => (AUCTION_DURATIONS as readonly number[]).includes(n), auctionTexts.durationInvalid),
);

/** An optional whole-dinar option ("Kupi odmah", reserve): null when empty; see optionPrice. */
export const optionalOptionPrice = (message: string) => optionPrice(message).optional();

export const CreateAuctionInput = z.object({
  ...auctionFields,
  auction_duration: auctionDuration,
  buy_now_price: optionPrice(auctionTexts.buyNowTooLow).optional().transform((v) => v ?? null),
  reserve_price: optionPrice(auctionTexts.reserveTooLow).optional().transform((v) => v ?? null),
}).superRefine((v, ctx) => {
  for (const [path, message] of Object.entries(optionMessages(v.current_price, v.buy_now_price, v.reserve_price))) ctx.addIssue({ code: 'custom', path: [path], message });
});

/** The messages of the selling options that do not fit the starting price, by field (none when all fit). */
export function optionMessages(startingPrice: number, buyNow: number | null, reserve: number | null): Record<string, string> {
  const problems = optionProblems(startingPrice, buyNow, reserve);
  const out: Record<string, string> = {};
  if (problems.buy_now_price) out.buy_now_price = OPTION_MESSAGES.buy_now_price[problems.buy_now_price];
  if (problems.reserve_price) out.reserve_price = OPTION_MESSAGES.reserve_price[problems.reserve_price];
  return out;
}
export type CreateAuctionInput = z.output<typeof CreateAuctionInput>;
export type CreateAuctionForm = z.input<typeof CreateAuctionInput>;

import { SORTS, type Sort } from '../rules/sorts';
import { AUCTION_OUTCOMES, optionProblems } from '../rules/buy-now';
export { SORTS, type Sort };

const optionalInt = (min: number, max: number, message: string) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : intLike(v)),
    z.number({ error: message }).int(message).min(min, message).max(max, message).optional(),
  );

/**
 * The price and city filters of every list call (issue 28): `min_price` and `max_price` in whole dinars on the
 * current price (bounds included), `city` matched after normaliseForSearch. Blank is absent.
 */
export const ListFilterFields = {
  min_price: optionalInt(0, 1_000_000_000_000, listFilterTexts.badMinPrice),
  max_price: optionalInt(0, 1_000_000_000_000, listFilterTexts.badMaxPrice),
  city: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string({ error: listFilterTexts.badCity }).trim().max(CITY_MAX, listFilterTexts.badCity).optional(),
  ),
};

/**
 * Query of every list call. `page` switches the answer to the paged shape; `category` of
 * `all-auctions` (or none) means every category, an unknown one matches nothing; `q` is matched after
 * normaliseForSearch; an unknown `sort` falls back to the default.
 */
export const ListQuery = z.object({
  category: z.string({ error: auctionTexts.badQuery }).max(50, auctionTexts.badQuery).optional(),
  page: optionalInt(1, 1_000_000, auctionTexts.badPage),
  /** Above MAX_PAGE_SIZE is clamped to it; without `page` it limits the plain list. */
  page_size: z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : Math.min(Number(intLike(v)), MAX_PAGE_SIZE)),
    z.number({ error: auctionTexts.badPageSize }).int(auctionTexts.badPageSize).min(1, auctionTexts.badPageSize).optional(),
  ),
  sort: z.enum(SORTS).optional().default('endDateAsc').catch('endDateAsc'),
  q: z.string({ error: auctionTexts.badQuery }).max(200, auctionTexts.searchTooLong).optional(),
  ...ListFilterFields,
});
export type ListQuery = z.output<typeof ListQuery>;

export const AuctionStatus = z.enum(['active', 'ended']);
/** How an ended auction ended (issue 25); null while open. */
export const AuctionOutcome = z.enum(AUCTION_OUTCOMES).nullable();

/**
 * "Kupi odmah" and the reserve as every card and the detail show them (issue 25): `buy_now_price` (null without
 * one, after the first bid, or once ended), `has_reserve`, `reserve_met` (null without a reserve), `outcome`;
 * `reserve_price` only in the seller's own detail and own cards (absent everywhere else).
 */
const SellingOptions = {
  buy_now_price: z.number().nullable(),
  has_reserve: z.boolean(),
  reserve_met: z.boolean().nullable(),
  outcome: AuctionOutcome,
  reserve_price: z.number().nullable().optional(),
};

/** One image of an auction: `image` is the large size (detail slideshow), `thumbnail` the card size. */
export const AuctionImage = z.object({ id: z.number(), image: z.string(), thumbnail: z.string() });
export type AuctionImage = z.infer<typeof AuctionImage>;

/**
 * A card of every list (paged or not, popular, own, admin, watchlist). `first_image` is the first image's card
 * size; `images` holds all of the auction's images in display order, exactly as the detail's `images`;
 * `watched`: the caller watches it (always false for a visitor).
 */
export const AuctionCard = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  current_price: z.number(),
  end_date: z.string(),
  category: z.string(),
  city: z.string(),
  seller: z.number(),
  first_image: z.string().nullable(),
  images: z.array(AuctionImage),
  bid_count: z.number(),
  status: AuctionStatus,
  watched: z.boolean(),
  ...SellingOptions,
  /** The id of the auction that relisted this one (issue 26), null while none did. */
  relisted_as: z.number().nullable(),
});
export type AuctionCard = z.infer<typeof AuctionCard>;

/** A member's ratings as counts (issue 23): how many positive and negative ratings they got, as seller or buyer. */
export const RatingScore = z.object({ positive: z.number(), negative: z.number() });
export type RatingScore = z.infer<typeof RatingScore>;

export const AuctionDetail = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  current_price: z.number(),
  starting_price: z.number(),
  seller: z.number(),
  seller_name: z.string(),
  end_date: z.string(),
  city: z.string(),
  phone_number: z.string(),
  category: z.string(),
  bid_count: z.number(),
  status: AuctionStatus,
  winner: z.number().nullable(),
  created_at: z.string(),
  images: z.array(AuctionImage),
  /** The caller watches it (false for a visitor). */
  watched: z.boolean(),
  /** How many users watch it, read fresh on each request. */
  watch_count: z.number(),
  /** The seller blocked the caller (issue 24): they may watch but not bid, set a maximum, buy now or comment. False for a visitor. */
  viewer_blocked: z.boolean(),
  ...SellingOptions,
  /** The id of the auction that relisted this one (issue 26), null while none did. */
  relisted_as: z.number().nullable(),
  /** The auction this one relists (issue 26), null for a first listing (or when that one was deleted). */
  relisted_from: z.number().nullable(),
  /** How many times the item was relisted before this auction: 0 for a first listing, at most 9. */
  relist_count: z.number(),
  /** The seller's score: every rating they got, as seller or buyer (issue 23). */
  seller_rating: RatingScore,
});
export type AuctionDetail = z.infer<typeof AuctionDetail>;

/** The paged answer (`page` given): next/previous are page numbers or null. */
export const Paged = <T extends z.ZodType>(item: T) =>
  z.object({ count: z.number(), next: z.number().nullable(), previous: z.number().nullable(), results: z.array(item) });
export type Paged<T> = { count: number; next: number | null; previous: number | null; results: T[] };

/** Every list without `page` (and GET /api/auctions/best/). */
export const AuctionCardList = z.array(AuctionCard);
export const AuctionCardPage = Paged(AuctionCard);
/** A list endpoint's answer: the plain array without `page`, the page with it. */
export const AuctionListResponse = z.union([AuctionCardList, AuctionCardPage]);
export type AuctionListResponse = z.infer<typeof AuctionListResponse>;

/** 201 answer of POST /api/auctions/{id}/buy-now/: the auction ended sold to `winner` at `price`. */
export const BuyNowResponse = z.object({ auction_id: z.number(), price: z.number(), winner: z.number() });
export type BuyNowResponse = z.infer<typeof BuyNowResponse>;

export const CreateAuctionResponse = z.object({ id: z.number(), detail: z.string() });
export type CreateAuctionResponse = z.infer<typeof CreateAuctionResponse>;
export const SellerResponse = z.object({ first_name: z.string(), id: z.number() });
export type SellerResponse = z.infer<typeof SellerResponse>;
export const OfferCountResponse = z.object({ bid_count: z.number() });
export type OfferCountResponse = z.infer<typeof OfferCountResponse>;
export const ImagesResponse = z.object({ images: z.array(AuctionImage) });
export type ImagesResponse = z.infer<typeof ImagesResponse>;
export const ImageOrderInput = z.object({
  image_ids: z.array(z.number().int().positive(), { error: auctionTexts.imagesOrderInvalid }).min(1, auctionTexts.imagesOrderInvalid).max(IMAGES_MAX, auctionTexts.imagesOrderInvalid),
});
