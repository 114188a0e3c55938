/**
 * Every socket event the server pushes, with its room. Called only by publish() (publish.ts), after the
 * transaction that produced the event has committed. A failing emit is logged, never thrown: the HTTP
 * answer of a committed change must not turn into an error.
 */
import type { Logger } from 'pino';
import type { AuctionDeletedEvent, AuctionUpdatedEvent } from '@shared/socket-events';
import type { AuctionClosedEvent, BidPlacedEvent } from '@shared/schemas/bids';
import type { CommentCreatedEvent, CommentDeletedEvent } from '@shared/schemas/comments';
import type { NotificationEvent, UnreadCountResponse } from '@shared/schemas/notifications';
import type { LiveSockets } from '../context';
import type { NotificationChange } from '../events';

/** Where publish() sends: the socket server's rooms, and a logger for emits that fail. */
export interface Outlet {
  realtime: Pick<LiveSockets, 'toAuction' | 'toUser' | 'dropUser'>;
  logger: Pick<Logger, 'warn'>;
}

function safely(out: Outlet, event: string, emit: () => void): void {
  try {
    emit();
  } catch (err) {
    out.logger.warn({ err, event }, 'broadcast failed');
  }
}

/** `notification:created` (or `notification:updated` for a coalesced one) to the user's room. */
export function broadcastNotificationChange(out: Outlet, c: NotificationChange): void {
  const event = c.type === 'created' ? 'notification:created' : 'notification:updated';
  const payload: NotificationEvent = { notification: c.notification, unread_notifications_count: c.unread };
  safely(out, event, () => out.realtime.toUser(c.userId, event, payload));
}

/** `notifications:count` after the user read something. */
export function broadcastUnreadCount(out: Outlet, userId: number, count: number): void {
  const payload: UnreadCountResponse = { unread_notifications_count: count };
  safely(out, 'notifications:count', () => out.realtime.toUser(userId, 'notifications:count', payload));
}

export function broadcastBidPlaced(out: Outlet, payload: BidPlacedEvent): void {
  safely(out, 'bid:placed', () => out.realtime.toAuction(payload.auction_id, 'bid:placed', payload));
}

export function broadcastCommentCreated(out: Outlet, payload: CommentCreatedEvent): void {
  safely(out, 'comment:created', () => out.realtime.toAuction(payload.auction_id, 'comment:created', payload));
}

export function broadcastCommentDeleted(out: Outlet, payload: CommentDeletedEvent): void {
  safely(out, 'comment:deleted', () => out.realtime.toAuction(payload.auction_id, 'comment:deleted', payload));
}

export function broadcastAuctionClosed(out: Outlet, payload: AuctionClosedEvent): void {
  safely(out, 'auction:closed', () => out.realtime.toAuction(payload.auction_id, 'auction:closed', payload));
}

/** `auction:deleted` after an auction (and its room's reason to exist) is gone. */
export function broadcastAuctionDeleted(out: Outlet, payload: AuctionDeletedEvent): void {
  safely(out, 'auction:deleted', () => out.realtime.toAuction(payload.auction_id, 'auction:deleted', payload));
}

/** `auction:updated` after the seller edited an auction or its images (issue 26). */
export function broadcastAuctionUpdated(out: Outlet, payload: AuctionUpdatedEvent): void {
  safely(out, 'auction:updated', () => out.realtime.toAuction(payload.auction_id, 'auction:updated', payload));
}
