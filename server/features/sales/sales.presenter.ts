import type { RatingRow } from '../../db/types';
import type { RatingScore } from '@shared/schemas/auctions';
import type { Rating, SaleItem } from '@shared/schemas/sales';
import type { SaleRow } from './sales.repository';

export function presentRating(r: RatingRow): Rating {
  return {
    id: r.id,
    value: r.value,
    comment: r.comment,
    created_at: r.created_at,
    reply: r.reply_content === null ? null : { content: r.reply_content, created_at: r.reply_created_at ?? r.created_at },
  };
}

/**
 * A sale as `viewerId` (its seller or its winner) sees it: the other party's contact (the seller's phone is the
 * auction's own, as in the winner's notification), both ratings and the end of the rating window.
 */
export function presentSale(
  row: SaleRow,
  viewerId: number,
  extra: { firstImage: string | null; ratings: readonly RatingRow[]; scores: Map<number, RatingScore>; blocked: ReadonlySet<number>; rateUntil: string },
): SaleItem {
  const sold = row.seller_id === viewerId;
  const counterpart = sold
    ? { id: row.winner_id, first_name: row.winner_name, city: row.winner_city, phone_number: row.winner_phone, email: row.winner_email }
    : { id: row.seller_id, first_name: row.seller_name, city: row.seller_city, phone_number: row.phone_number || row.seller_phone, email: row.seller_email };
  const mine = extra.ratings.find((r) => r.auction_id === row.id && r.rater_id === viewerId);
  const theirs = extra.ratings.find((r) => r.auction_id === row.id && r.rater_id === counterpart.id);
  return {
    auction_id: row.id,
    title: row.title,
    first_image: extra.firstImage,
    price: row.current_price,
    ended_at: row.end_date,
    role: sold ? 'seller' : 'buyer',
    counterpart: { ...counterpart, rating: extra.scores.get(counterpart.id) ?? { positive: 0, negative: 0 }, blocked_by_viewer: extra.blocked.has(counterpart.id) },
    my_rating: mine ? presentRating(mine) : null,
    their_rating: theirs ? presentRating(theirs) : null,
    rate_until: extra.rateUntil,
  };
}
