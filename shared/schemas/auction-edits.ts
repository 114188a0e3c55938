/**
 * Relisting an unsold auction and editing one before its first bid (issue 26): the requests and the
 * `auction:updated` event. Each field is parsed exactly as create parses it (shared/schemas/auctions.ts); what
 * depends on the stored auction (the options against the starting price) is checked by the server.
 */
import { z } from 'zod';
import { auctionTexts } from '../texts/auctions';
import { auctionDuration, auctionFields, AuctionImage, optionalOptionPrice } from './auctions';

const options = {
  /** Absent: keep; null or empty: remove; a number: the new price. */
  buy_now_price: optionalOptionPrice(auctionTexts.buyNowTooLow),
  reserve_price: optionalOptionPrice(auctionTexts.reserveTooLow),
};

/** POST /api/auctions/{id}/relist/: fields not given keep the old auction's values. */
export const RelistInput = z.object({
  auction_duration: auctionDuration,
  current_price: auctionFields.current_price.optional(),
  ...options,
});
export type RelistInput = z.output<typeof RelistInput>;

/** 201 of the relist: the new auction's id. */
export const RelistResponse = z.object({ id: z.number() });
export type RelistResponse = z.infer<typeof RelistResponse>;

/** PATCH /api/auctions/{id}/: only the fields sent change; the end date never does (a duration is ignored). */
export const EditAuctionInput = z.object({
  title: auctionFields.title.optional(),
  description: auctionFields.description.optional(),
  category: auctionFields.category.optional(),
  current_price: auctionFields.current_price.optional(),
  city: auctionFields.city.optional(),
  phone_number: auctionFields.phone_number.optional(),
  ...options,
});
export type EditAuctionInput = z.output<typeof EditAuctionInput>;
export type EditAuctionForm = z.input<typeof EditAuctionInput>;

/**
 * The presented fields an edit or an image change can change, as the public detail shows them (never the
 * reserve amount). `auction:updated` carries those that changed.
 */
export const AuctionChanges = z.object({
  title: z.string(),
  description: z.string(),
  category: z.string(),
  city: z.string(),
  phone_number: z.string(),
  current_price: z.number(),
  starting_price: z.number(),
  buy_now_price: z.number().nullable(),
  has_reserve: z.boolean(),
  reserve_met: z.boolean().nullable(),
  images: z.array(AuctionImage),
  /** With `images`: a card's first image (the first one's `thumbnail`, null without images). */
  first_image: z.string().nullable(),
}).partial();
export type AuctionChanges = z.infer<typeof AuctionChanges>;

/** `auction:updated`: the seller edited the auction or its images; `changes` holds the new values. */
export const AuctionUpdatedEvent = z.object({ auction_id: z.number(), seq: z.number(), changes: AuctionChanges });
export type AuctionUpdatedEvent = z.infer<typeof AuctionUpdatedEvent>;
