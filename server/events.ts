/**
 * The one vocabulary of what happened, on the ground floor: services build these inside the transaction from
 * the rows they wrote (payloads already presented, seq from the row), the unit of work (unit-of-work.ts) hands
 * them to the sink after the commit, and whoever subscribed (server/realtime) turns them into socket events.
 * A write that rolls back returns none, so it can never be announced. Imports nothing above shared/ and lib/.
 */
import type { AuctionDeletedEvent } from '@shared/socket-events';
import type { AuctionUpdatedEvent } from '@shared/schemas/auction-edits';
import type { AuctionClosedEvent, BidPlacedEvent } from '@shared/schemas/bids';
import type { CommentCreatedEvent, CommentDeletedEvent } from '@shared/schemas/comments';
import type { NotificationResponse } from '@shared/schemas/notifications';
import { andThen, type MaybeAsync } from './lib/maybe-async';

/** A new auction, as the `auction:created` event carries it. */
export interface AuctionCreatedEvent {
  auction_id: number;
  seller_id: number;
  category: string;
  city: string;
  current_price: number;
  created_at: string;
}

/** What happened to one of a user's notifications inside a transaction, presented. */
export interface NotificationChange {
  type: 'created' | 'updated';
  userId: number;
  notification: NotificationResponse;
  /** The user's unread count with this change. */
  unread: number;
  /** A mail due at once was queued with it (issue 27): the mail worker is woken. Never sent to a socket. */
  mailDue?: boolean;
}

export type DomainEvent =
  | { type: 'bid:placed'; payload: BidPlacedEvent }
  | { type: 'comment:created'; payload: CommentCreatedEvent }
  | { type: 'comment:deleted'; payload: CommentDeletedEvent }
  | { type: 'auction:closed'; payload: AuctionClosedEvent }
  | { type: 'auction:deleted'; payload: AuctionDeletedEvent }
  /** The seller edited an open auction before its first bid, or its images (issue 26): the changed fields. */
  | { type: 'auction:updated'; payload: AuctionUpdatedEvent }
  /**
   * A new auction relists `relisted_from` (issue 26). No room hears it (nobody watches a new auction yet); it
   * is here so whatever keeps lists (a list cache) learns of every auction that appears in them.
   */
  | { type: 'auction:relisted'; auctionId: number; relistedFrom: number; sellerId: number }
  /**
   * An auction was created (issue 28), after its commit: the saved-search matcher wakes for it (its job row was
   * written in the same transaction); a list cache may drop what it showed.
   */
  | { type: 'auction:created'; payload: AuctionCreatedEvent }
  /** A user's notification was created or rewritten (a coalesced burst of bids). */
  | { type: 'notification:changed'; change: NotificationChange }
  /** A user read a notification: their unread count changed. */
  | { type: 'notifications:read'; userId: number; unread: number }
  /**
   * Sessions of a user ended (logout, password change or reset, blocked), after the change was written: their
   * sockets whose session is no longer valid become anonymous watchers.
   */
  | { type: 'session:ended'; userId: number }
  /**
   * A user's row changed (profile, e-mail verified, Google link, unblocked, the admin role; without `userId`:
   * any user's), after the write: the session cache (features/accounts/session-cache.ts) drops the user it
   * holds; no socket is told.
   */
  | { type: 'user:changed'; userId?: number }
  /**
   * What the public lists show changed without an event of its own (an unblocked seller's auctions are listed
   * again): the list cache (features/auctions/list-cache.ts) drops its entries; no socket is told.
   */
  | { type: 'lists:changed' };

/** No events: shared, so an answer without events allocates none (the refused bids of a hot auction). */
export const NO_EVENTS: readonly DomainEvent[] = Object.freeze([]);

export function notificationEvents(changes: readonly NotificationChange[]): DomainEvent[] {
  return changes.map((change) => ({ type: 'notification:changed', change }));
}

/** The `session:ended` of a user whose sessions were ended (logout, password change or reset, block). */
export function sessionEnded(userId: number): DomainEvent[] {
  return [{ type: 'session:ended', userId }];
}

/** The `user:changed` of a user whose row was written (or of any user: `userId` left out). */
export function userChanged(userId?: number): DomainEvent[] {
  return [userId === undefined ? { type: 'user:changed' } : { type: 'user:changed', userId }];
}

/** A subscriber: gets every batch of committed events in order; a promise when it finishes later (PostgreSQL). */
export type EventListener = (events: readonly DomainEvent[]) => MaybeAsync<void>;

/** Where committed events go. publish() settles when every subscriber has handled them. */
export interface EventSink {
  publish(events: readonly DomainEvent[]): MaybeAsync<void>;
  /**
   * `first`: the listener runs before every other one, and they start only once it has finished (the list
   * cache's version, features/auctions/list-cache.ts, is bumped before a socket tells anyone of the change).
   */
  subscribe(listener: EventListener, opts?: { first?: boolean }): void;
}

/**
 * The app's sink. Synchronous while every subscriber is (SQLite, room events): the hot path adds no await. A
 * subscriber's failure is its own to log: it is not the caller's, whose write has committed.
 */
export function createEventSink(): EventSink {
  const firsts: EventListener[] = [];
  const listeners: EventListener[] = [];
  const runAll = (list: readonly EventListener[], events: readonly DomainEvent[]): MaybeAsync<void> => {
    let pending: Promise<void>[] | undefined;
    for (const listener of list) {
      const done = listener(events);
      if (done instanceof Promise) (pending ??= []).push(done);
    }
    if (pending) return Promise.all(pending).then(() => undefined);
  };
  return {
    subscribe: (listener, opts) => void (opts?.first ? firsts : listeners).push(listener),
    publish(events) {
      if (events.length === 0) return;
      return andThen(runAll(firsts, events), () => runAll(listeners, events));
    },
  };
}
