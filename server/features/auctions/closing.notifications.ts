import type { DbOrTx } from '../../db/types';
import type { NotificationChange } from '../../events';
import { notifySellerEnded, notifyWinner } from '../notifications/notifications.service';
import { findContact, type EndedAuction } from './closing.repository';

/**
 * The notifications of a close, in the close's transaction: the winner (if any) learns the seller's name and
 * phone (the auction's own phone first), then the seller learns the price and the winner's contact.
 */
export async function notifyEnded(tx: DbOrTx, auction: EndedAuction, now: string): Promise<NotificationChange[]> {
  const ref = { id: auction.id, title: auction.title };
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
