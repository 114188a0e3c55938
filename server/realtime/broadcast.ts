/**
 * Every socket event the server pushes, with its room. Called only by publish() (publish.ts), after the
 * transaction that produced the event has committed. A failing emit is logged, never thrown: the HTTP
 * answer of a committed change must not turn into an error.
 */
import type { AppContext } from '../context';
import type { AuctionDeletedEvent } from '@shared/socket-events';
import type { AuctionClosedEvent, BidPlacedEvent } from '@shared/schemas/bids';
import type { CommentCreatedEvent, CommentDeletedEvent } from '@shared/schemas/comments';
import type { NotificationEvent, UnreadCountResponse } from '@shared/schemas/notifications';
import type { NotificationChange } from '../features/notifications/notifications.service';
import { presentNotification } from '../features/notifications/notifications.presenter';

function safely(ctx: AppContext, event: string, emit: () => void): void {
  try {
    emit();
  } catch (err) {
    ctx.logger.warn({ err, event }, 'broadcast failed');
  }
}

/** `notification:created` (or `notification:updated` for a coalesced one) to each user's room. */
export function broadcastNotificationChanges(ctx: AppContext, changes: NotificationChange[]): void {
  for (const c of changes) {
    const event = c.type === 'created' ? 'notification:created' : 'notification:updated';
    const payload: NotificationEvent = { notification: presentNotification(c.notification), unread_notifications_count: c.unread };
    safely(ctx, event, () => ctx.realtime.toUser(c.userId, event, payload));
  }
}

/** `notifications:count` after the user read something. */
export function broadcastUnreadCount(ctx: AppContext, userId: number, count: number): void {
  const payload: UnreadCountResponse = { unread_notifications_count: count };
  safely(ctx, 'notifications:count', () => ctx.realtime.toUser(userId, 'notifications:count', payload));
}

export function broadcastBidPlaced(ctx: AppContext, payload: BidPlacedEvent): void {
  safely(ctx, 'bid:placed', () => ctx.realtime.toAuction(payload.auction_id, 'bid:placed', payload));
}

export function broadcastCommentCreated(ctx: AppContext, payload: CommentCreatedEvent): void {
  safely(ctx, 'comment:created', () => ctx.realtime.toAuction(payload.auction_id, 'comment:created', payload));
}

export function broadcastCommentDeleted(ctx: AppContext, payload: CommentDeletedEvent): void {
  safely(ctx, 'comment:deleted', () => ctx.realtime.toAuction(payload.auction_id, 'comment:deleted', payload));
}

export function broadcastAuctionClosed(ctx: AppContext, payload: AuctionClosedEvent): void {
  safely(ctx, 'auction:closed', () => ctx.realtime.toAuction(payload.auction_id, 'auction:closed', payload));
}

/** `auction:deleted` after an auction (and its room's reason to exist) is gone. */
export function broadcastAuctionDeleted(ctx: AppContext, payload: AuctionDeletedEvent): void {
  safely(ctx, 'auction:deleted', () => ctx.realtime.toAuction(payload.auction_id, 'auction:deleted', payload));
}
