import type { AuctionCard, AuctionDetail, AuctionImage } from '@shared/schemas/auctions';
import { reserveMet, shownBuyNowPrice } from '@shared/rules/buy-now';
import { mediaUrl } from '../images/media-store';
import type { CardRow, DetailRow } from './auctions.repository';

/** Ended once the closing job marked it, or as soon as end_date has passed (the job may lag a second). */
export function statusOf(row: { status: string; end_date: string }, now: number = Date.now()): 'active' | 'ended' {
  return row.status === 'ended' || Date.parse(row.end_date) <= now ? 'ended' : 'active';
}

export function presentImage(img: { id: number; card_path: string; large_path: string }): AuctionImage {
  return { id: img.id, image: mediaUrl(img.large_path), thumbnail: mediaUrl(img.card_path) };
}

type SellingOptions = Pick<AuctionCard, 'buy_now_price' | 'has_reserve' | 'reserve_met' | 'outcome' | 'reserve_price'>;

type ImageFiles = { id: number; card_path: string; large_path: string };

/**
 * "Kupi odmah" and the reserve as a card and the detail show them (issue 25, shared/rules/buy-now.ts). The
 * reserve amount goes to its seller alone (`viewerId` = the seller); everyone else learns only whether there
 * is one and whether it is met.
 */
export function presentOptions(row: CardRow, status: 'active' | 'ended', viewerId: number | undefined): SellingOptions {
  const options = { open: status === 'active', bidCount: row.bid_count, buyNowPrice: row.buy_now_price };
  return {
    buy_now_price: shownBuyNowPrice(options),
    has_reserve: row.reserve_price !== null,
    reserve_met: reserveMet(row.current_price, row.bid_count, row.reserve_price),
    outcome: row.outcome,
    ...(viewerId !== undefined && viewerId === row.seller_id ? { reserve_price: row.reserve_price } : {}),
  };
}

/**
 * A list card (spec §3 "Auction (list)" + status), with the auction's city and all its images in display
 * order, each presented exactly as on the detail (presentImage), so a card and its detail agree.
 */
export function presentCard(row: CardRow, images: readonly ImageFiles[], watched: boolean, now: number = Date.now(), viewerId?: number): AuctionCard {
  const status = statusOf(row, now);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    current_price: row.current_price,
    end_date: row.end_date,
    category: row.category,
    city: row.city,
    seller: row.seller_id,
    first_image: row.first_image_path ? mediaUrl(row.first_image_path) : null,
    images: images.map(presentImage),
    bid_count: row.bid_count,
    status,
    watched,
    ...presentOptions(row, status, viewerId),
    relisted_as: row.relisted_as ?? null,
  };
}

/** The detail (spec §3 "Auction (detail)" + category, counts, status, winner, seller name, ordered images, watching). */
export function presentDetail(
  row: DetailRow,
  images: readonly ImageFiles[],
  now: number = Date.now(),
  viewerId?: number,
): AuctionDetail {
  const status = statusOf(row, now);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    current_price: row.current_price,
    starting_price: row.starting_price,
    seller: row.seller_id,
    seller_name: row.seller_name,
    end_date: row.end_date,
    city: row.city,
    phone_number: row.phone_number,
    category: row.category,
    bid_count: row.bid_count,
    status,
    winner: row.winner_id,
    created_at: row.created_at,
    images: images.map(presentImage),
    watched: Boolean(row.watched),
    watch_count: Number(row.watch_count),
    viewer_blocked: Boolean(row.viewer_blocked),
    ...presentOptions(row, status, viewerId),
    relisted_as: row.relisted_as ?? null,
    relisted_from: row.relisted_from ?? null,
    relist_count: Number(row.relist_count ?? 0),
    seller_rating: { positive: Number(row.seller_positive), negative: Number(row.seller_negative) },
  };
}
