/**
 * The realtime layer's subscription to the app's events (server/events.ts): createRealtime() subscribes
 * publish() to ctx.events, and the unit of work (unit-of-work.ts) hands it each transaction's events after the
 * commit. Events go out in the order given. A session that ended demotes its sockets; the returned promise
 * (PostgreSQL only) settles once they are.
 */
import type { DomainEvent } from '../events';
import type { MaybeAsync } from '../lib/maybe-async';
import {
  broadcastAuctionClosed,
  broadcastAuctionDeleted,
  broadcastAuctionUpdated,
  broadcastBidPlaced,
  broadcastCommentCreated,
  broadcastCommentDeleted,
  broadcastNotificationChange,
  broadcastUnreadCount,
  type Outlet,
} from './broadcast';

export function publish(out: Outlet, events: readonly DomainEvent[]): MaybeAsync<void> {
  let pending: Promise<void>[] | undefined;
  for (const e of events) {
    const done = publishOne(out, e);
    if (done instanceof Promise) (pending ??= []).push(done);
  }
  if (pending) return Promise.all(pending).then(() => undefined);
}

function publishOne(out: Outlet, e: DomainEvent): MaybeAsync<void> {
  switch (e.type) {
    case 'bid:placed':
      return broadcastBidPlaced(out, e.payload);
    case 'comment:created':
      return broadcastCommentCreated(out, e.payload);
    case 'comment:deleted':
      return broadcastCommentDeleted(out, e.payload);
    case 'auction:closed':
      return broadcastAuctionClosed(out, e.payload);
    case 'auction:deleted':
      return broadcastAuctionDeleted(out, e.payload);
    case 'auction:updated':
      return broadcastAuctionUpdated(out, e.payload);
    case 'auction:relisted':
      return;
    case 'notification:changed':
      return broadcastNotificationChange(out, e.change);
    case 'notifications:read':
      return broadcastUnreadCount(out, e.userId, e.unread);
    case 'session:ended':
      return out.realtime.dropUser(e.userId);
    case 'lists:changed':
    case 'user:changed':
      return;
  }
}
