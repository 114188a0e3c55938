import type { DbOrTx } from '../../db/types';
import type { NotificationChange } from '../../events';
import { notifyReserveNotMet, notifySellerEnded, notifySellerReserveNotMet, notifyWinner } from '../notifications/notifications.service';
import { findContact, findHighestBidder, type EndedAuction } from './closing.repository';

/**
 * The notifications of a close, in the close's transaction: the winner (if any) learns the seller's name and
 * phone (the auction's own phone first), then the seller learns the price and the winner's contact. Below the
 * reserve (issue 25) there is no winner: the highest bidder is told the item was not sold (kind
 * `reserve_not_met`, no amount), then the seller the reserve and the highest bid.
 */
export async function notifyEnded(tx: DbOrTx, auction: EndedAuction, now: string): Promise<NotificationChange[]> {
  const ref = { id: auction.id, title: auction.title };
  if (auction.outcome === 'reserve_not_met' && auction.reserve_price !== null) {
    const highest = await findHighestBidder(tx, auction.id);
    const changes: NotificationChange[] = [];
    if (highest !== undefined) changes.push(await notifyReserveNotMet(tx, highest, ref, now));
    changes.push(await notifySellerReserveNotMet(tx, auction.seller_id, ref, auction.reserve_price, auction.current_price, now));
    return changes;
  }
  const seller = await findContact(tx, auction.seller_id);
  if (!seller) throw new Error(`seller ${auction.seller_id} of auction ${auction.id} not found`);
  const winner = auction.winner_id ? await findContact(tx, auction.winner_id) : undefined;
  const price = auction.current_price;
  const changes: NotificationChange[] = [];
  if (winner) {
    const sellerContact = { name: seller.first_name, phone: auction.phone_number || seller.phone_number };
    changes.push(await notifyWinner(tx, winner.id, ref, price, sellerContact, now));
  }
  const winnerContact = winner ? { name: winner.first_name, email: winner.email, phone: winner.phone_number } : null;
  changes.push(await notifySellerEnded(tx, seller.id, ref, price, winnerContact, now));
  return changes;
}
