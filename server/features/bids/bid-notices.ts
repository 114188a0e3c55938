/**
 * A manual bid's notifications, out of its transaction (issue 30, B2; migration 2026-11-27-0100). The bid's
 * transaction writes one notice (what the notifications need); after its commit the `bid:placed` broadcast goes
 * out, then deliverBidNotices() claims the auction's notices in the order their bids committed and writes the
 * notifications (the outbid bidder's or the beaten maximum's owner's, the seller's coalesced one, their mails and
 * unread counts) in a second transaction, before the bid is answered. So a notification is there for whoever
 * reads after the bid's answer, as before; only the watchers see the bid a notification's work sooner.
 *
 * Nothing is lost between the two: a notice whose delivery failed, or whose process stopped, is delivered by the
 * next bid on that auction, or by the poll (stray-notices.ts: at start, and every MAIL_POLL_SECONDS once it is
 * STRAY_AFTER_MS old).
 * Maxima and "Kupi odmah" still notify inside their own transactions.
 */
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/types';
import { notificationEvents, type NotificationChange } from '../../events';
import { isoAt } from '../../lib/time';
import { unitOfWork } from '../../unit-of-work';
import { notifyMaxBeaten, notifyNewBid, notifyOutbid } from '../notifications/notifications.service';
import { claimBidNotices, insertBidNotice } from './bids.repository';

/** What a request's notifications need, decided under the auction's lock. */
export interface BidNotice {
  auction: { id: number; title: string };
  sellerId: number;
  /** When the request arrived: the notifications are dated then. */
  nowMs: number;
  /** A maximum this request beat: its owner is told once. */
  beaten: { bidder: number; max: number } | null;
  /** The previous leader, told with the plain outbid text at `price`. */
  outbid: number | null;
  price: number;
  /** The request's last row, for the seller, with the auction's bid_count before and after the request. */
  last: { bidderName: string; amount: number; before: number; after: number } | null;
}

/** The notifications of one notice, in the caller's transaction: the beaten or outbid bidder, then the seller. */
export async function notifyOf(tx: DbOrTx, n: BidNotice): Promise<NotificationChange[]> {
  const now = isoAt(n.nowMs);
  const changes: NotificationChange[] = [];
  if (n.beaten) changes.push(await notifyMaxBeaten(tx, n.beaten.bidder, n.auction, n.beaten.max, now));
  if (n.outbid !== null) changes.push(await notifyOutbid(tx, n.outbid, n.auction, n.price, now));
  if (n.last) {
    const bids = { before: n.last.before, after: n.last.after };
    changes.push(await notifyNewBid(tx, n.sellerId, n.auction, n.last.bidderName, n.last.amount, n.nowMs, bids));
  }
  return changes;
}

/** Queues a notice in the bid's transaction. */
export function queueBidNotice(tx: DbOrTx, n: BidNotice): Promise<void> {
  return insertBidNotice(tx, n.auction.id, JSON.stringify(n), isoAt(n.nowMs));
}

/**
 * Delivers every waiting notice of an auction, oldest first, in one transaction; their events (the users' unread
 * counts, the mail worker's wake) after its commit. A failure is logged and left to the next delivery or the poll.
 */
export async function deliverBidNotices(ctx: AppContext, auctionId: number): Promise<void> {
  try {
    await unitOfWork(
      ctx,
      async (tx) => {
        const changes: NotificationChange[] = [];
        for (const row of await claimBidNotices(tx, auctionId)) changes.push(...(await notifyOf(tx, JSON.parse(row.notice) as BidNotice)));
        return changes;
      },
      { events: notificationEvents },
    );
  } catch (err) {
    ctx.logger.error({ err, auction: auctionId }, 'bid notifications failed; the next bid or the poll delivers them');
  }
}
