/**
 * The one way out for events: services return DomainEvent[] from a committed transaction, and whoever awaited
 * that commit hands them here: a route after it has answered (the answer does not wait for the fan-out to
 * the rooms), the closer after each close. Events go out in the order given.
 */
import type { AppContext } from '../context';
import {
  broadcastAuctionClosed,
  broadcastAuctionDeleted,
  broadcastBidPlaced,
  broadcastCommentCreated,
  broadcastCommentDeleted,
  broadcastNotificationChanges,
  broadcastUnreadCount,
} from './broadcast';
import type { DomainEvent } from './events';

export function publish(ctx: AppContext, events: readonly DomainEvent[]): void {
  for (const e of events) publishOne(ctx, e);
}

function publishOne(ctx: AppContext, e: DomainEvent): void {
  switch (e.type) {
    case 'bid:placed':
      return broadcastBidPlaced(ctx, e.payload);
    case 'comment:created':
      return broadcastCommentCreated(ctx, e.payload);
    case 'comment:deleted':
      return broadcastCommentDeleted(ctx, e.payload);
    case 'auction:closed':
      return broadcastAuctionClosed(ctx, e.payload);
    case 'auction:deleted':
      return broadcastAuctionDeleted(ctx, e.payload);
    case 'notification:changed':
      return broadcastNotificationChanges(ctx, [e.change]);
    case 'notifications:read':
      return broadcastUnreadCount(ctx, e.userId, e.unread);
  }
}
