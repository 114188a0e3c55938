import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/types';
import type { DomainEvent, NotificationChange } from '../../events';
import { unitOfWork } from '../../unit-of-work';
import type { NotificationKind } from '@shared/schemas/notifications';
import {
  countUnread,
  findRecentNewBid,
  insertNotification,
  markRead,
  updateNotificationMessage,
} from './notifications.repository';
import { notificationTexts, type AuctionRef } from '@shared/texts/notifications';
import { presentNotification } from './notifications.presenter';
import { queueMailFor } from '../email-alerts/email-alerts.queue';

/** A seller's unread 'new bid' notification absorbs further bids on that auction for this long. */
export const NEW_BID_COALESCE_MS = 10 * 60 * 1000;

async function create(
  tx: DbOrTx,
  userId: number,
  auctionId: number | null,
  kind: NotificationKind,
  message: string,
  now: string,
  bidsBefore: number | null = null,
): Promise<NotificationChange> {
  const notification = await insertNotification(tx, { user_id: userId, auction_id: auctionId, kind, message, created_at: now, bids_before: bidsBefore });
  // Its e-mail (issue 27), queued in this transaction: sent after the commit, or never if it rolls back.
  const mailDue = (await queueMailFor(tx, notification)) === 'now';
  return { type: 'created', userId, notification: presentNotification(notification), unread: await countUnread(tx, userId), mailDue };
}

/** To the previous leader, when someone else takes the lead. */
export function notifyOutbid(tx: DbOrTx, userId: number, auction: AuctionRef, newPrice: number, now: string) {
  return create(tx, userId, auction.id, 'outbid', notificationTexts.outbid(auction, newPrice), now);
}

/** To the owner of a maximum, once, when another bidder beats it (kind `outbid`, its own text). */
export function notifyMaxBeaten(tx: DbOrTx, userId: number, auction: AuctionRef, max: number, now: string) {
  return create(tx, userId, auction.id, 'outbid', notificationTexts.maxBeaten(auction, max), now);
}

/**
 * To the seller. A burst does not flood: while an unread 'new_bid' notification of this auction younger than
 * NEW_BID_COALESCE_MS exists, it is rewritten with the burst's count instead of adding another. `bids` is the
 * auction's bid_count before and after the request's rows (under its lock): the notification keeps where its
 * burst began, so the count costs no read of the bids.
 */
export async function notifyNewBid(
  tx: DbOrTx,
  sellerId: number,
  auction: AuctionRef,
  bidderName: string,
  amount: number,
  nowMs: number,
  bids: { before: number; after: number },
): Promise<NotificationChange> {
  const now = new Date(nowMs).toISOString();
  const since = new Date(nowMs - NEW_BID_COALESCE_MS).toISOString();
  const recent = await findRecentNewBid(tx, sellerId, auction.id, since);
  if (!recent) return create(tx, sellerId, auction.id, 'new_bid', notificationTexts.newBid(auction, bidderName, amount), now, bids.before);
  const before = recent.notification.bids_before;
  const count = before !== null ? bids.after - before : (recent.bidsSince ?? 0);
  const notification = await updateNotificationMessage(tx, recent.notification.id, notificationTexts.newBids(auction, Math.max(count, 2), bidderName, amount));
  // Rewriting an unread notification leaves the seller's unread count as it was read with it.
  return { type: 'updated', userId: sellerId, notification: presentNotification(notification), unread: recent.unread };
}

export function notifyWinner(
  tx: DbOrTx,
  winnerId: number,
  auction: AuctionRef,
  price: number,
  seller: { name: string; phone: string },
  now: string,
) {
  return create(tx, winnerId, auction.id, 'won', notificationTexts.won(auction, price, seller.name, seller.phone), now);
}

export function notifySellerEnded(
  tx: DbOrTx,
  sellerId: number,
  auction: AuctionRef,
  price: number,
  winner: { name: string; email: string; phone: string } | null,
  now: string,
) {
  const message = winner ? notificationTexts.endedSold(auction, price, winner) : notificationTexts.endedNoBids(auction);
  return create(tx, sellerId, auction.id, 'auction_ended', message, now);
}

/** A close below the reserve (issue 25): the seller learns the reserve and the highest bid. */
export function notifySellerReserveNotMet(tx: DbOrTx, sellerId: number, auction: AuctionRef, reserve: number, price: number, now: string) {
  return create(tx, sellerId, auction.id, 'auction_ended', notificationTexts.endedReserveNotMet(auction, reserve, price), now);
}

/** A close below the reserve (issue 25): the highest bidder learns there was no sale (no amount). */
export function notifyReserveNotMet(tx: DbOrTx, bidderId: number, auction: AuctionRef, now: string) {
  return create(tx, bidderId, auction.id, 'reserve_not_met', notificationTexts.reserveNotMet(auction), now);
}

export function notifyNewComment(
  tx: DbOrTx,
  sellerId: number,
  auction: AuctionRef,
  authorName: string,
  content: string,
  now: string,
) {
  return create(tx, sellerId, auction.id, 'new_comment', notificationTexts.newComment(auction, authorName, content), now);
}

/** To a watcher or bidder of an auction that ends in `minutes` (once per auction: the closer claims it). */
export function notifyEndingSoon(tx: DbOrTx, userId: number, auction: AuctionRef, minutes: number, now: string) {
  return create(tx, userId, auction.id, 'ending_soon', notificationTexts.endingSoon(auction, minutes), now);
}

/** To the rated member of a sale, when the other party rated them (issue 23). */
export function notifyRatingReceived(
  tx: DbOrTx,
  userId: number,
  auction: AuctionRef,
  rating: { positive: boolean; from: string; comment: string; ratedAs: 'seller' | 'buyer' },
  now: string,
) {
  return create(tx, userId, auction.id, 'rating_received', notificationTexts.ratingReceived(auction, rating), now);
}

/** To a reporter, when an admin closed their report (issue 24): `message` is markup already and names no admin. */
export function notifyReportResolved(tx: DbOrTx, reporterId: number, message: string, now: string) {
  return create(tx, reporterId, null, 'report_resolved', message, now);
}

/** To the owner of a saved search that a new auction matched (issue 28); `message` from savedSearchTexts. */
export function notifySavedSearch(tx: DbOrTx, userId: number, auctionId: number | null, message: string, now: string) {
  return create(tx, userId, auctionId, 'saved_search', message, now);
}

export interface ReadNotification {
  id: number;
  unread: number;
  /** Published after the commit: the user's new unread count. */
  events: DomainEvent[];
}

/** Marks one of the user's own notifications read; undefined when it is not theirs or does not exist. */
export async function markNotificationRead(ctx: AppContext, userId: number, id: number): Promise<ReadNotification | undefined> {
  return unitOfWork(
    ctx,
    async (tx): Promise<ReadNotification | undefined> => {
      const updated = await markRead(tx, userId, id);
      if (!updated) return undefined;
      const unread = await countUnread(tx, userId);
      return { id: updated.id, unread, events: [{ type: 'notifications:read', userId, unread }] };
    },
    { events: (r) => r?.events },
  );
}
