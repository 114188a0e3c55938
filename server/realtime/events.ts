/**
 * What a committed write changed, as the services report it: built inside the transaction from the rows it
 * wrote, returned to the caller, and turned into socket events by publish() once the commit has happened.
 * A write that rolls back returns none, so it can never be announced.
 */
import type { AuctionDeletedEvent } from '@shared/socket-events';
import type { AuctionClosedEvent, BidPlacedEvent } from '@shared/schemas/bids';
import type { CommentCreatedEvent, CommentDeletedEvent } from '@shared/schemas/comments';
import type { NotificationChange } from '../features/notifications/notifications.service';

export type DomainEvent =
  | { type: 'bid:placed'; payload: BidPlacedEvent }
  | { type: 'comment:created'; payload: CommentCreatedEvent }
  | { type: 'comment:deleted'; payload: CommentDeletedEvent }
  | { type: 'auction:closed'; payload: AuctionClosedEvent }
  | { type: 'auction:deleted'; payload: AuctionDeletedEvent }
  /** A user's notification was created or rewritten (a coalesced burst of bids). */
  | { type: 'notification:changed'; change: NotificationChange }
  /** A user read a notification: their unread count changed. */
  | { type: 'notifications:read'; userId: number; unread: number };

export function notificationEvents(changes: readonly NotificationChange[]): DomainEvent[] {
  return changes.map((change) => ({ type: 'notification:changed', change }));
}
