import type { AppContext } from '../../context';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/dialect';
import type { User } from '../../db/types';
import { notificationEvents, type DomainEvent } from '../../events';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import { unitOfWork } from '../../unit-of-work';
import type { Paged } from '@shared/schemas/auctions';
import type { Rating, RatingInput, SaleItem, SalesQuery } from '@shared/schemas/sales';
import { rateUntil, ratingWindowOpen } from '@shared/rules/sales';
import { salesTexts } from '@shared/texts/sales';
import { imagesForAuctions } from '../images/images.repository';
import { mediaUrl } from '../images/media-store';
import { notifyRatingReceived } from '../notifications/notifications.service';
import { blockedAmong } from '../blocks/blocks.repository';
import { pageOf } from '../../lib/paging';
import { findRating, findRatingBy, insertRating, ratingsOfAuctions, scoresOf, setReply } from './ratings.repository';
import { countSales, findSaleAuction, listSales as listSaleRows } from './sales.repository';
import { presentRating, presentSale } from './sales.presenter';

/** The end of a sale's rating window: RATING_WINDOW_DAYS auction days (AUCTION_DAY_SECONDS each) after its end. */
function windowEnd(ctx: AppContext, endDate: string): string {
  return rateUntil(endDate, ctx.config.ratingWindowDays, ctx.config.auctionDaySeconds);
}

/** GET /api/sales/: the caller's sales (as seller, buyer or both), newest end first, one page. */
export async function listSales(ctx: AppContext, user: User, query: SalesQuery): Promise<Paged<SaleItem>> {
  const { page, page_size: size, role } = query;
  const [count, rows] = await Promise.all([countSales(ctx.db, user.id, role), listSaleRows(ctx.db, user.id, role, size, (page - 1) * size)]);
  const ids = rows.map((r) => r.id);
  const counterparts = rows.map((r) => (r.seller_id === user.id ? r.winner_id : r.seller_id));
  const [images, ratings, scores, blocked] = await Promise.all([
    imagesForAuctions(ctx.db, ids),
    ratingsOfAuctions(ctx.db, ids),
    scoresOf(ctx.db, counterparts),
    blockedAmong(ctx.db, user.id, counterparts),
  ]);
  const results = rows.map((r) => {
    const first = images.get(r.id)?.[0];
    return presentSale(r, user.id, { firstImage: first ? mediaUrl(first.card_path) : null, ratings, scores, blocked, rateUntil: windowEnd(ctx, r.end_date) });
  });
  return pageOf(count, page, size, results);
}

interface Rated {
  rating: Rating;
  /** Published after the commit: the rated member's `rating_received` notification. */
  events: DomainEvent[];
}

/**
 * POST /api/sales/{auction_id}/rating/: the seller or the winner rates the other party, once, final, within the
 * window. Not a sale (unknown, open, ended without a winner) → 404; someone else → 403; a second rating or a
 * closed window → 400. Two ratings at once: the unique (auction_id, rater_id) index keeps one, the other is 400.
 */
export async function rateSale(ctx: AppContext, user: User, auctionId: number, input: RatingInput): Promise<Rating> {
  const now = Date.now();
  const result = await unitOfWork(
    ctx,
    async (tx): Promise<Rated> => {
      const a = await findSaleAuction(tx, auctionId);
      if (!a || a.status !== 'ended' || a.winner_id === null) throw AppError.notFound(salesTexts.saleNotFound);
      if (user.id !== a.seller_id && user.id !== a.winner_id) throw AppError.forbidden();
      if (await findRatingBy(tx, a.id, user.id)) throw alreadyRated();
      if (!ratingWindowOpen(windowEnd(ctx, a.end_date), now)) throw AppError.badRequest(salesTexts.windowClosed, undefined, 'window_closed');
      const sold = user.id === a.seller_id;
      const ratedId = sold ? a.winner_id : a.seller_id;
      const row = await insertRating(tx, {
        auction_id: a.id,
        auction_title: a.title,
        rater_id: user.id,
        rated_id: ratedId,
        role: sold ? 'buyer' : 'seller',
        value: input.value,
        comment: input.comment,
        created_at: isoAt(now),
      });
      const notice = { positive: input.value === 'positive', from: user.first_name, comment: input.comment, ratedAs: row.role };
      const change = await notifyRatingReceived(tx, ratedId, { id: a.id, title: a.title }, notice, isoAt(now));
      return { rating: presentRating(row), events: notificationEvents([change]) };
    },
    { events: (r) => r.events },
  ).catch((err: unknown) => {
    if (isUniqueViolation(err)) throw alreadyRated();
    // The auction was deleted between the read and the insert: no longer a sale.
    if (isForeignKeyViolation(err)) throw AppError.notFound(salesTexts.saleNotFound);
    throw err;
  });
  return result.rating;
}

function alreadyRated(): AppError {
  return AppError.badRequest(salesTexts.alreadyRated, undefined, 'already_rated');
}

/**
 * POST /api/ratings/{id}/reply/: the rated member answers once (no window). Unknown → 404, anyone else → 403,
 * a second answer → 400 (also when two arrive at once: the UPDATE is conditional).
 */
export async function replyToRating(ctx: AppContext, user: User, ratingId: number, content: string): Promise<Rating> {
  const rating = await findRating(ctx.db, ratingId);
  if (!rating) throw AppError.notFound(salesTexts.ratingNotFound);
  if (rating.rated_id !== user.id) throw AppError.forbidden();
  const updated = rating.reply_content === null ? await setReply(ctx.db, rating.id, user.id, content, isoAt(Date.now())) : undefined;
  if (!updated) throw AppError.badRequest(salesTexts.alreadyReplied, undefined, 'already_replied');
  return presentRating(updated);
}
