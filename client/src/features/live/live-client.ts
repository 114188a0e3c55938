/**
 * The live layer (contract in docs/socket-contract.md), put together from one part per job: the socket's
 * life (./connection), what the screens follow (./subscriptions), the order of each auction's events
 * (./seq), writing them into the react-query cache (./cache) and what is shown beside it (./alerts).
 * React binds to it through LiveLayer and the hooks in ./hooks.ts.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AuctionDetail } from '@shared/schemas/auctions';
import type { SessionEndedEvent } from '@shared/socket-events';
import type { AppSocket } from '../../lib/socket';
import { Alerts } from './alerts';
import { applyNotification, applyRoomEvent, applyUnreadCount, readHistory, refetchAfterReconnect } from './cache';
import { Connection, type Listen } from './connection';
import { followedLive } from './following';
import { wasExtended } from './patches';
import { checkPayload } from './payload-checks';
import { ROOM_EVENT_NAMES, roomEvent, type RoomEvent } from './room-event';
import { SeqBook } from './seq';
import { createStore, type Store } from './store';
import { Subscriptions } from './subscriptions';

export type { LiveStatus } from './connection';
export type { NoticeToast, OutbidToast } from './alerts';
export type { RoomEvent } from './room-event';

export class LiveClient {
  private qc: QueryClient | null = null;
  private sessionEndListeners = new Set<(reason: SessionEndedEvent['reason']) => void>();
  private readonly alerts = new Alerts();
  private readonly connection = new Connection({
    listen: (on) => this.listen(on),
    connected: (again) => this.connected(again),
    disconnected: () => this.subs.disconnected(),
  });
  /** An early event waits DEFAULT_HOLD_MS for the missing seq (two nodes' events may cross) before a resync. */
  private readonly book = new SeqBook<RoomEvent>({ onGap: (id) => this.subs.resync(id) });
  private readonly subs: Subscriptions;

  readonly status = this.connection.status;
  readonly extended = this.alerts.extended;
  readonly toasts = this.alerts.toasts;
  readonly notices = this.alerts.notices;
  /** Auctions whose room this socket is in with a settled baseline (the screen is live for them). */
  readonly ready: Store<ReadonlySet<number>>;

  /** `ready`: where to publish the followed auctions (the app's client uses ./following's store). */
  constructor(ready: Store<ReadonlySet<number>> = createStore<ReadonlySet<number>>(new Set())) {
    this.ready = ready;
    this.subs = new Subscriptions(
      {
        socket: () => this.connection.connected,
        cache: () => this.qc,
        book: this.book,
        apply: (e) => this.apply(e),
        joined: (id, before, after) => this.joined(id, before, after),
        closed: (id) => this.alerts.markExtended(id, false),
        unfollowed: (id) => this.alerts.forget(id),
      },
      ready,
    );
  }

  /**
   * Binds to the app's cache and opens the socket (idempotent). Without a socket argument the app's socket
   * is loaded first (socket.io-client is a lazy chunk); screens may acquire rooms meanwhile: they are joined
   * on connect. A failed chunk load is retried.
   */
  start(qc: QueryClient, socket?: AppSocket): void {
    this.attach(qc);
    this.connection.start(socket);
  }

  /** The cache events are applied to (start() does this; tests call it alone). */
  attach(qc: QueryClient): void {
    this.qc = qc;
  }

  stop(): void {
    this.connection.stop();
    this.alerts.stop();
    this.subs.stop();
    this.book.clearHolds();
  }

  /**
   * The server demoted this socket because the session it was opened with ended (`session:ended`).
   * Returns the unsubscribe function. The socket stays connected as an anonymous watcher.
   */
  onSessionEnded(listener: (reason: SessionEndedEvent['reason']) => void): () => void {
    this.sessionEndListeners.add(listener);
    return () => void this.sessionEndListeners.delete(listener);
  }

  /** The logged-in user's id (null when anonymous): outbid toasts are for them. */
  setUser(id: number | null): void {
    if (!this.alerts.setUser(id)) return;
    // Who leads decides the outbid toast: read the history of open detail pages once the user is known.
    if (id !== null && this.qc) for (const auctionId of this.subs.detailIds()) readHistory(this.qc, auctionId);
  }

  /** time:sync a few times, keep the lowest-RTT offset (docs/socket-contract.md §2). */
  syncClock(): Promise<void> {
    return this.connection.syncClock();
  }

  /** The detail page of `id` is open: join its room (snapshot + seq). Returns the release function. */
  acquireDetail(id: number): () => void {
    return this.subs.acquireDetail(id);
  }

  /** Cards on screen: watch their rooms (one `auctions:watch`). Returns the release function. */
  acquireWatch(ids: readonly number[]): () => void {
    return this.subs.acquireWatch(ids);
  }

  /** Applies one in-order event to every cache entry that shows that auction, and tells the user. */
  apply(e: RoomEvent): void {
    const qc = this.qc;
    if (!qc) return;
    const open = this.subs.hasDetail(e.auction_id);
    if (e.name !== 'bid:placed') return applyRoomEvent(qc, e, open);
    const before = this.alerts.beforeBid(qc, e.auction_id);
    applyRoomEvent(qc, e, open);
    this.alerts.bidPlaced(qc, e.payload, before, open);
  }

  dismissNotice(id: number): void {
    this.alerts.dismissNotice(id);
  }

  dismissToast(id: number): void {
    this.alerts.dismissToast(id);
  }

  private listen(on: Listen): void {
    for (const name of ROOM_EVENT_NAMES) {
      on(name, (raw: unknown) => {
        const e = roomEvent(name, raw);
        if (e) for (const next of this.book.push(e).apply) this.apply(next);
      });
    }
    on('notification:created', (raw: unknown) => this.onNotification(raw, true));
    on('notification:updated', (raw: unknown) => this.onNotification(raw, false));
    on('notifications:count', (raw: unknown) => {
      const r = checkPayload('notifications:count', raw);
      if (r && this.qc) applyUnreadCount(this.qc, r.unread_notifications_count);
    });
    on('session:ended', (raw: unknown) => {
      const r = checkPayload('session:ended', raw);
      if (r) for (const l of [...this.sessionEndListeners]) l(r.reason);
    });
  }

  private connected(again: boolean): void {
    this.subs.connected(again);
    if (again && this.qc) refetchAfterReconnect(this.qc);
  }

  private joined(id: number, before: AuctionDetail | undefined, after: AuctionDetail): void {
    if (before && after.status !== 'ended' && wasExtended(before.end_date, after.end_date)) this.alerts.markExtended(id);
    // Who leads matters for the outbid toast: read the history once for a logged-in user.
    if (this.alerts.user !== null && this.qc) readHistory(this.qc, id);
  }

  private onNotification(raw: unknown, created: boolean): void {
    const r = checkPayload(created ? 'notification:created' : 'notification:updated', raw);
    if (!r || !this.qc) return;
    applyNotification(this.qc, r);
    if (created) this.alerts.notice(r.notification);
  }
}

/** The app's live layer (one per page load, like the socket); its followed auctions are ./following's. */
export const live = new LiveClient(followedLive);
