/**
 * The live layer (contract in docs/socket-contract.md): one socket, the rooms the screen needs,
 * events applied once and in order (by seq) as in-place patches of the react-query cache, resync after a
 * gap or a reconnect, the server clock offset, and the small UI state (connection, outbid toasts,
 * soft-close extensions). React binds to it through LiveLayer and the hooks in ./hooks.ts.
 */
import type { QueryClient } from '@tanstack/react-query';
import { MAX_AUCTION_ROOMS_PER_SOCKET } from '@shared/socket-helpers';
import type { AuctionEventName, AuctionEventPayload, AuctionsWatchAck, AuctionJoinAck, SessionEndedEvent } from '@shared/socket-events';
import { loadSocket, type AppSocket } from '../../lib/socket';
import { setOffset } from '../../lib/clock';
import { auctionKey } from '../auctions/api/auction-detail';
import { auctionListsKey } from '../auctions/api/auctions-list';
import { bidsKey, bidsQuery } from '../auctions/api/bids';
import { autoBidKey } from '../auctions/api/auto-bid';
import type { AutoBidStateResponse } from '@shared/schemas/autobid';
import { commentsKey } from '../auctions/api/comments';
import type { AuctionCard, AuctionDetail, Paged } from '@shared/schemas/auctions';
import type { BidResponse as Bid } from '@shared/schemas/bids';
import type { CommentResponse as Comment } from '@shared/schemas/comments';
import type { NotificationResponse as Notification } from '@shared/schemas/notifications';
import { notificationsKey } from '../notifications/api/notifications';
import { unreadCountKey } from '../notifications/api/unread-count';
import { measureOffset } from './clock-sync';
import { check, notificationEvent, notificationsCount, ROOM_GUARDS, sessionEnded } from './guards';
import { SeqBook } from './seq';
import { createStore } from './store';
import {
  addCommentOnce,
  appendBid,
  bidFields,
  closedFields,
  leaderOf,
  patchDetail,
  patchListPage,
  removeComment,
  removeFromListPage,
  upsertNotification,
  wasExtended,
} from './patches';

/** connecting: before the first connect; offline: lost (shown); restored: back (shown for a moment). */
export type LiveStatus = 'connecting' | 'online' | 'offline' | 'restored';

export interface OutbidToast {
  id: number;
  auctionId: number;
  title: string;
  price: number;
}

/** A notification that arrived live (e.g. 'se završava za …'), shown beside the bell for a while. */
export interface NoticeToast {
  id: number;
  notificationId: number;
  auctionId: number | null;
  /** The notification's escaped markup, as in the list (sanitised when shown). */
  message: string;
}

/** An auction-room event with its name, as the seq book queues it. */
export type RoomEvent = {
  [K in AuctionEventName]: { name: K; auction_id: number; seq: number; payload: AuctionEventPayload<K> };
}[AuctionEventName];

const ACK_MS = 8_000;
const RESTORED_MS = 4_000;
const TOAST_MS = 12_000;
const SERVER_DROP_RETRY_MS = 3_000;

export class LiveClient {
  readonly status = createStore<LiveStatus>('connecting');
  /** Auctions whose end a bid moved later while the page was open (soft close). */
  readonly extended = createStore<ReadonlySet<number>>(new Set());
  readonly toasts = createStore<OutbidToast[]>([]);
  readonly notices = createStore<NoticeToast[]>([]);
  /** Auctions whose room this socket is in with a settled baseline (the screen is live for them). */
  readonly ready = createStore<ReadonlySet<number>>(new Set());

  /** An early event waits DEFAULT_HOLD_MS for the missing seq (two nodes' events may cross) before a resync. */
  private book = new SeqBook<RoomEvent>({ onGap: (id) => this.resync(id) });
  private detailRefs = new Map<number, number>();
  private watchRefs = new Map<number, number>();
  /** Highest bidder per auction, as far as events and loaded histories tell. */
  private leaders = new Map<number, number>();
  private toWatch = new Set<number>();
  private watchFlush = false;
  private everConnected = false;
  private networkDown = false;
  private userId: number | null = null;
  private qc: QueryClient | null = null;
  private socket: AppSocket | null = null;
  private cleanups: (() => void)[] = [];
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private listRefetch: ReturnType<typeof setTimeout> | undefined;
  private toastSeq = 0;
  private sessionEndListeners = new Set<(reason: SessionEndedEvent['reason']) => void>();
  /** Bumped by start() and stop(): a socket that finishes loading after a stop (or a newer start) is not bound. */
  private generation = 0;

  // ------------------------------------------------------------ lifecycle

  /**
   * Binds to the app's cache and opens the socket (idempotent). Without a socket argument the app's socket
   * is loaded first (socket.io-client is a lazy chunk); screens may acquire rooms meanwhile: they are joined
   * on connect. A failed chunk load is retried.
   */
  start(qc: QueryClient, socket?: AppSocket): void {
    this.attach(qc);
    if (this.socket) return;
    if (socket) return this.bind(socket);
    const gen = ++this.generation;
    const load = () =>
      loadSocket().then(
        (s) => {
          if (gen === this.generation && !this.socket) this.bind(s);
        },
        () => {
          if (gen === this.generation) this.later(SERVER_DROP_RETRY_MS, () => void load());
        },
      );
    void load();
  }

  private bind(socket: AppSocket): void {
    this.socket = socket;
    const on = <A extends unknown[]>(event: string, fn: (...a: A) => void) => {
      (socket as unknown as { on(e: string, f: (...a: A) => void): void }).on(event, fn);
      this.cleanups.push(() => (socket as unknown as { off(e: string, f: (...a: A) => void): void }).off(event, fn));
    };
    on('connect', () => this.onConnect());
    on('disconnect', (reason: string) => this.onDisconnect(reason));
    on('connect_error', () => {
      if (this.everConnected) this.status.set('offline');
    });
    for (const name of Object.keys(ROOM_GUARDS) as AuctionEventName[]) on(name, (p: unknown) => this.onRoomEvent(name, p));
    on('notification:created', (p: unknown) => this.onNotification(p, true));
    on('notification:updated', (p: unknown) => this.onNotification(p, false));
    on('notifications:count', (p: unknown) => {
      const r = check(notificationsCount, p);
      if (r) this.qc?.setQueryData(unreadCountKey, r.unread_notifications_count);
    });
    on('session:ended', (p: unknown) => {
      const r = check(sessionEnded, p);
      if (r) for (const l of [...this.sessionEndListeners]) l(r.reason);
    });

    if (typeof window !== 'undefined') {
      const offline = () => {
        // The browser knows the network is gone before any ping times out: say so at once.
        this.networkDown = true;
        this.status.set('offline');
        socket.disconnect();
      };
      const online = () => {
        this.networkDown = false;
        if (!socket.connected) socket.connect();
      };
      const visible = () => {
        if (document.visibilityState === 'visible' && socket.connected) void this.syncClock();
      };
      window.addEventListener('offline', offline);
      window.addEventListener('online', online);
      document.addEventListener('visibilitychange', visible);
      this.cleanups.push(() => {
        window.removeEventListener('offline', offline);
        window.removeEventListener('online', online);
        document.removeEventListener('visibilitychange', visible);
      });
      this.networkDown = typeof navigator !== 'undefined' && navigator.onLine === false;
    }
    if (!this.networkDown) socket.connect();
  }

  /** The cache events are applied to (start() does this; tests call it alone). */
  attach(qc: QueryClient): void {
    this.qc = qc;
  }

  stop(): void {
    this.generation++;
    for (const c of this.cleanups.splice(0)) c();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    clearTimeout(this.listRefetch);
    this.book.clearHolds();
    this.socket?.disconnect();
    this.socket = null;
    this.everConnected = false;
    this.status.set('connecting');
    this.ready.set(new Set());
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
    if (id === this.userId) return;
    this.toasts.set([]);
    this.notices.set([]);
    this.leaders.clear();
    this.userId = id;
    // Who leads decides the outbid toast: read the history of open detail pages once the user is known.
    if (id !== null && this.qc) for (const auctionId of this.detailRefs.keys()) void this.qc.prefetchQuery(bidsQuery(auctionId));
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private onConnect(): void {
    const again = this.everConnected;
    this.everConnected = true;
    // A reconnect we asked for (login, logout) was never shown as lost, so it is not "restored" either.
    if (this.status.get() === 'offline') {
      this.status.set('restored');
      this.later(RESTORED_MS, () => {
        if (this.status.get() === 'restored') this.status.set('online');
      });
    } else {
      this.status.set('online');
    }
    void this.syncClock();
    for (const id of this.detailRefs.keys()) void this.join(id, again);
    const watched = [...this.watchRefs.keys()].filter((id) => !this.detailRefs.has(id));
    if (again) {
      // Events sent while we were away are not replayed: refetch what the screen shows.
      void this.qc?.invalidateQueries({ queryKey: auctionListsKey });
      void this.qc?.invalidateQueries({ queryKey: ['notifications'] });
    }
    if (watched.length) this.sendWatch(watched, true);
  }

  private setReady(id: number, on: boolean): void {
    this.ready.set((s) => {
      if (s.has(id) === on) return s;
      const copy = new Set(s);
      if (on) copy.add(id);
      else copy.delete(id);
      return copy;
    });
  }

  private onDisconnect(reason: string): void {
    this.ready.set(new Set());
    if (reason === 'io client disconnect' && !this.networkDown) return; // our own reconnect or stop
    this.status.set('offline');
    if (reason === 'io server disconnect') {
      // The server closed us (flood control): socket.io does not retry by itself.
      this.later(SERVER_DROP_RETRY_MS, () => {
        if (this.socket && !this.socket.connected && !this.networkDown) this.socket.connect();
      });
    }
  }

  /** time:sync a few times, keep the lowest-RTT offset (docs/socket-contract.md §2). */
  async syncClock(): Promise<void> {
    const s = this.socket;
    if (!s) return;
    const best = await measureOffset((client_time) => s.timeout(ACK_MS).emitWithAck('time:sync', { client_time }), 5);
    if (best) setOffset(Math.round(best.offset));
  }

  // ------------------------------------------------------------ subscriptions from screens

  /** The detail page of `id` is open: join its room (snapshot + seq). Returns the release function. */
  acquireDetail(id: number): () => void {
    const n = (this.detailRefs.get(id) ?? 0) + 1;
    this.detailRefs.set(id, n);
    if (n === 1 && this.socket?.connected) void this.join(id, false);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.detailRefs.get(id) ?? 1) - 1;
      if (left > 0) return void this.detailRefs.set(id, left);
      this.detailRefs.delete(id);
      this.extended.set((s) => {
        if (!s.has(id)) return s;
        const copy = new Set(s);
        copy.delete(id);
        return copy;
      });
      if (!this.watchRefs.has(id)) {
        this.book.forget(id);
        this.leaders.delete(id);
        this.setReady(id, false);
        if (this.socket?.connected) this.socket.emit('auction:leave', { auction_id: id }, () => undefined);
      }
    };
  }

  /** Cards on screen: watch their rooms (one `auctions:watch`). Returns the release function. */
  acquireWatch(ids: readonly number[]): () => void {
    const unique = [...new Set(ids)];
    const fresh: number[] = [];
    for (const id of unique) {
      const n = (this.watchRefs.get(id) ?? 0) + 1;
      this.watchRefs.set(id, n);
      if (n === 1 && !this.detailRefs.has(id)) fresh.push(id);
    }
    if (fresh.length && this.socket?.connected) this.sendWatch(fresh, false);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const gone: number[] = [];
      for (const id of unique) {
        const left = (this.watchRefs.get(id) ?? 1) - 1;
        if (left > 0) {
          this.watchRefs.set(id, left);
          continue;
        }
        this.watchRefs.delete(id);
        this.toWatch.delete(id);
        if (!this.detailRefs.has(id)) {
          this.book.forget(id);
          this.leaders.delete(id);
          this.setReady(id, false);
          gone.push(id);
        }
      }
      if (gone.length && this.socket?.connected) {
        for (let i = 0; i < gone.length; i += MAX_AUCTION_ROOMS_PER_SOCKET) {
          this.socket.emit('auctions:unwatch', { auction_ids: gone.slice(i, i + MAX_AUCTION_ROOMS_PER_SOCKET) }, () => undefined);
        }
      }
    };
  }

  /** Collects ids and sends them in one `auctions:watch` per tick (a page of cards mounts at once). */
  private sendWatch(ids: number[], reset: boolean): void {
    for (const id of ids) this.toWatch.add(id);
    if (this.watchFlush) return;
    this.watchFlush = true;
    queueMicrotask(() => {
      this.watchFlush = false;
      const s = this.socket;
      const all = [...this.toWatch].filter((id) => this.watchRefs.has(id));
      this.toWatch.clear();
      if (!s?.connected || all.length === 0) return;
      for (let i = 0; i < all.length; i += MAX_AUCTION_ROOMS_PER_SOCKET) {
        const chunk = all.slice(i, i + MAX_AUCTION_ROOMS_PER_SOCKET);
        s.timeout(ACK_MS)
          .emitWithAck('auctions:watch', { auction_ids: chunk })
          .then((ack: AuctionsWatchAck) => {
            if (!ack.ok) return;
            for (const a of ack.auctions) {
              if (!this.watchRefs.has(a.auction_id) || this.detailRefs.has(a.auction_id)) continue;
              if (reset) this.book.forget(a.auction_id);
              const out = this.book.baseline(a.auction_id, a.seq);
              this.setReady(a.auction_id, true);
              for (const e of out.apply) this.apply(e);
            }
          })
          .catch(() => undefined);
      }
    });
  }

  /** auction:join → the snapshot replaces the cached detail; buffered events after its seq are applied. */
  private async join(id: number, refetchRest: boolean): Promise<void> {
    const s = this.socket;
    const qc = this.qc;
    if (!s?.connected || !qc) return;
    this.book.begin(id);
    const sentAt = Date.now();
    let ack: AuctionJoinAck;
    try {
      ack = await s.timeout(ACK_MS).emitWithAck('auction:join', { auction_id: id });
    } catch {
      // No answer (connection dropped meanwhile): the next connect joins again.
      if (!this.detailRefs.has(id)) this.book.forget(id);
      return;
    }
    if (!this.detailRefs.has(id)) {
      if (!this.watchRefs.has(id)) this.book.forget(id);
      return;
    }
    if (!ack.ok) {
      this.book.forget(id);
      // Unknown auction (deleted meanwhile): the REST read shows the page's not-found state.
      void qc.invalidateQueries({ queryKey: auctionKey(id), exact: true });
      return;
    }
    const before = qc.getQueryData<AuctionDetail>(auctionKey(id));
    qc.setQueryData<AuctionDetail>(auctionKey(id), ack.auction);
    if (before && ack.auction.status !== 'ended' && wasExtended(before.end_date, ack.auction.end_date)) this.markExtended(id);
    // Lists read by REST before we were in the room may miss a change: refetch them (once).
    for (const key of [commentsKey(id), bidsKey(id), autoBidKey(id)]) {
      const st = qc.getQueryState(key);
      if (st && (refetchRest || (st.dataUpdatedAt > 0 && st.dataUpdatedAt < sentAt))) {
        void qc.invalidateQueries({ queryKey: key, exact: true });
      }
    }
    // Who leads matters for the outbid toast: read the history once for a logged-in user.
    if (this.userId !== null) void qc.prefetchQuery(bidsQuery(id));
    const out = this.book.settle(id, ack.seq);
    this.setReady(id, true);
    for (const e of out.apply) this.apply(e);
  }

  /** A missed event: refetch what the screen shows of that auction. */
  private resync(id: number): void {
    if (this.detailRefs.has(id)) void this.join(id, true);
    if (this.watchRefs.has(id)) {
      clearTimeout(this.listRefetch);
      this.listRefetch = setTimeout(() => void this.qc?.invalidateQueries({ queryKey: auctionListsKey }), 200);
    }
  }

  // ------------------------------------------------------------ events

  private onRoomEvent(name: AuctionEventName, raw: unknown): void {
    const p = check(ROOM_GUARDS[name] as (v: unknown) => unknown, raw) as { auction_id: number; seq: number } | null;
    if (!p) return;
    const ev = { name, auction_id: p.auction_id, seq: p.seq, payload: p } as RoomEvent;
    for (const e of this.book.push(ev).apply) this.apply(e);
  }

  /** Applies one in-order event to every cache entry that shows that auction. */
  apply(e: RoomEvent): void {
    const qc = this.qc;
    if (!qc) return;
    const id = e.auction_id;
    switch (e.name) {
      case 'bid:placed': {
        const p = e.payload;
        const detail = qc.getQueryData<AuctionDetail>(auctionKey(id));
        const prevLeader = this.leaders.get(id) ?? leaderOf(qc.getQueryData<Bid[]>(bidsKey(id)));
        const title = detail?.title ?? this.cardOf(id)?.title ?? '';
        const prevEnd = detail?.end_date ?? this.cardOf(id)?.end_date;
        const fields = bidFields(p);
        qc.setQueryData<AuctionDetail>(auctionKey(id), (d) => patchDetail(d, fields));
        qc.setQueryData<Bid[]>(bidsKey(id), (list) => appendBid(list, p.bid));
        qc.setQueriesData<Paged<AuctionCard>>({ queryKey: auctionListsKey }, (page) => patchListPage(page, id, fields));
        this.leaders.set(id, p.bid.bidder);
        if (this.detailRefs.has(id) && wasExtended(prevEnd, p.end_date)) this.markExtended(id);
        this.outbidCheck(id, p.bid, prevLeader, () => ({ auctionId: id, title, price: p.current_price }));
        break;
      }
      case 'comment:created':
        qc.setQueryData<Comment[]>(commentsKey(id), (list) => addCommentOnce(list, e.payload.comment));
        break;
      case 'comment:deleted':
        qc.setQueryData<Comment[]>(commentsKey(id), (list) => removeComment(list, e.payload.comment_id));
        break;
      case 'auction:closed': {
        const fields = closedFields(e.payload);
        qc.setQueryData<AuctionDetail>(auctionKey(id), (d) => patchDetail(d, fields));
        qc.setQueriesData<Paged<AuctionCard>>({ queryKey: auctionListsKey }, (page) => patchListPage(page, id, fields));
        break;
      }
      case 'auction:deleted':
        qc.setQueriesData<Paged<AuctionCard>>({ queryKey: auctionListsKey }, (page) => removeFromListPage(page, id));
        if (this.detailRefs.has(id)) void qc.invalidateQueries({ queryKey: auctionKey(id), exact: true });
        break;
    }
  }

  /**
   * The outbid toast goes to the previous leader, unless their own maximum answers at once (the next row is
   * theirs: a bid below the maximum never beats it). A row above the maximum spends it. A row of mine means I
   * lead again: an older toast for that auction is gone.
   */
  private outbidCheck(id: number, bid: Bid, prevLeader: number | undefined, toast: () => Omit<OutbidToast, 'id'>): void {
    const me = this.userId;
    const qc = this.qc;
    if (me === null || !qc) return;
    if (bid.bidder === me) {
      this.toasts.set((list) => (list.some((x) => x.auctionId === id) ? list.filter((x) => x.auctionId !== id) : list));
      return;
    }
    const myMax = qc.getQueryData<AutoBidStateResponse>(autoBidKey(id))?.max_amount ?? null;
    if (myMax !== null && bid.amount >= myMax) qc.setQueryData<AutoBidStateResponse>(autoBidKey(id), { max_amount: null });
    const answered = myMax !== null && bid.amount < myMax;
    if (prevLeader === me && !answered) this.pushToast(toast());
  }

  private cardOf(id: number): AuctionCard | undefined {
    for (const [, page] of this.qc?.getQueriesData<Paged<AuctionCard>>({ queryKey: auctionListsKey }) ?? []) {
      const c = page?.results?.find((a) => a.id === id);
      if (c) return c;
    }
    return undefined;
  }

  private onNotification(raw: unknown, created: boolean): void {
    const r = check(notificationEvent, raw);
    if (!r || !this.qc) return;
    this.qc.setQueryData<Notification[]>(notificationsKey, (list) => upsertNotification(list, r.notification));
    this.qc.setQueryData(unreadCountKey, r.unread_notifications_count);
    if (created) this.pushNotice(r.notification);
  }

  /** A new notification is shown for a while, unless the outbid toast already tells it for that auction. */
  private pushNotice(n: Notification): void {
    if (n.auction_id !== null && this.toasts.get().some((t) => t.auctionId === n.auction_id)) return;
    const notice: NoticeToast = { id: ++this.toastSeq, notificationId: n.id, auctionId: n.auction_id, message: n.message };
    this.notices.set((list) => [...list.filter((x) => x.notificationId !== n.id), notice].slice(-3));
    this.later(TOAST_MS, () => this.dismissNotice(notice.id));
  }

  dismissNotice(id: number): void {
    this.notices.set((list) => (list.some((x) => x.id === id) ? list.filter((x) => x.id !== id) : list));
  }

  private markExtended(id: number): void {
    this.extended.set((s) => (s.has(id) ? s : new Set(s).add(id)));
  }

  private pushToast(t: Omit<OutbidToast, 'id'>): void {
    const toast = { ...t, id: ++this.toastSeq };
    this.toasts.set((list) => [...list.filter((x) => x.auctionId !== t.auctionId), toast].slice(-3));
    // The outbid notification of the same auction says the same: one toast.
    this.notices.set((list) => (list.some((x) => x.auctionId === t.auctionId) ? list.filter((x) => x.auctionId !== t.auctionId) : list));
    this.later(TOAST_MS, () => this.dismissToast(toast.id));
  }

  dismissToast(id: number): void {
    this.toasts.set((list) => (list.some((x) => x.id === id) ? list.filter((x) => x.id !== id) : list));
  }
}

/** The app's live layer (one per page load, like the socket). */
export const live = new LiveClient();
