/**
 * What the screens follow: reference counts of open detail pages (each joins its auction's room and takes
 * its snapshot) and of cards on screen (watched in one `auctions:watch` per tick), the room left when the
 * last one goes, the seq baseline of each, which auctions are live (`ready`), and the resync after a gap.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AuctionDetail } from '@shared/schemas/auctions';
import type { AuctionJoinAck, AuctionsWatchAck } from '@shared/socket-events';
import { MAX_AUCTION_ROOMS_PER_SOCKET } from '@shared/socket-helpers';
import type { AppSocket } from '../../lib/socket';
import { applySnapshot, refetchDetail, refetchLists } from './cache';
import { ACK_MS } from './connection';
import type { RoomEvent } from './room-event';
import type { SeqBook } from './seq';
import { setMember, type Store } from './store';

export interface SubscriptionsOwner {
  /** The socket if connected, else null. */
  socket(): AppSocket | null;
  cache(): QueryClient | null;
  book: SeqBook<RoomEvent>;
  /** Applies one in-order event (buffered ones after a snapshot or a watch baseline). */
  apply(e: RoomEvent): void;
  /** A join's snapshot replaced the cached detail (`before`: the one cached until then). */
  joined(id: number, before: AuctionDetail | undefined, after: AuctionDetail): void;
  /** The last detail page of `id` closed. */
  closed(id: number): void;
  /** `id` is no longer followed at all (its room is left). */
  unfollowed(id: number): void;
}

const chunks = (ids: number[]) => Array.from({ length: Math.ceil(ids.length / MAX_AUCTION_ROOMS_PER_SOCKET) }, (_, i) => ids.slice(i * MAX_AUCTION_ROOMS_PER_SOCKET, (i + 1) * MAX_AUCTION_ROOMS_PER_SOCKET));

export class Subscriptions {
  private detailRefs = new Map<number, number>();
  private watchRefs = new Map<number, number>();
  private toWatch = new Set<number>();
  private watchFlush = false;
  private listRefetch: ReturnType<typeof setTimeout> | undefined;

  /** `ready`: auctions whose room this socket is in with a settled baseline (the screen is live for them). */
  constructor(
    private readonly owner: SubscriptionsOwner,
    readonly ready: Store<ReadonlySet<number>>,
  ) {}

  hasDetail(id: number): boolean {
    return this.detailRefs.has(id);
  }

  detailIds(): number[] {
    return [...this.detailRefs.keys()];
  }

  /** The detail page of `id` is open: join its room (snapshot + seq). Returns the release function. */
  acquireDetail(id: number): () => void {
    const n = (this.detailRefs.get(id) ?? 0) + 1;
    this.detailRefs.set(id, n);
    if (n === 1 && this.owner.socket()) void this.join(id, false);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.detailRefs.get(id) ?? 1) - 1;
      if (left > 0) return void this.detailRefs.set(id, left);
      this.detailRefs.delete(id);
      this.owner.closed(id);
      if (this.watchRefs.has(id)) return;
      this.unfollow(id);
      this.owner.socket()?.emit('auction:leave', { auction_id: id }, () => undefined);
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
    if (fresh.length && this.owner.socket()) this.sendWatch(fresh, false);
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
        if (this.detailRefs.has(id)) continue;
        this.unfollow(id);
        gone.push(id);
      }
      const s = this.owner.socket();
      if (s) for (const chunk of chunks(gone)) s.emit('auctions:unwatch', { auction_ids: chunk }, () => undefined);
    };
  }

  /** (Re)connected: every open page joins again, every card is watched again (with a fresh baseline). */
  connected(again: boolean): void {
    for (const id of this.detailRefs.keys()) void this.join(id, again);
    const watched = [...this.watchRefs.keys()].filter((id) => !this.detailRefs.has(id));
    if (watched.length) this.sendWatch(watched, true);
  }

  /** Disconnected: nothing is live until the rooms are joined again. */
  disconnected(): void {
    this.ready.set(new Set());
  }

  stop(): void {
    clearTimeout(this.listRefetch);
    this.disconnected();
  }

  /** A missed event: refetch what the screen shows of that auction. */
  resync(id: number): void {
    if (this.detailRefs.has(id)) void this.join(id, true);
    if (this.watchRefs.has(id)) {
      clearTimeout(this.listRefetch);
      this.listRefetch = setTimeout(() => refetchLists(this.owner.cache()), 200);
    }
  }

  private unfollow(id: number): void {
    this.owner.book.forget(id);
    this.owner.unfollowed(id);
    setMember(this.ready, id, false);
  }

  /** Collects ids and sends them in one `auctions:watch` per tick (a page of cards mounts at once). */
  private sendWatch(ids: number[], reset: boolean): void {
    for (const id of ids) this.toWatch.add(id);
    if (this.watchFlush) return;
    this.watchFlush = true;
    queueMicrotask(() => {
      this.watchFlush = false;
      const s = this.owner.socket();
      const all = [...this.toWatch].filter((id) => this.watchRefs.has(id));
      this.toWatch.clear();
      if (!s || all.length === 0) return;
      for (const chunk of chunks(all)) {
        s.timeout(ACK_MS)
          .emitWithAck('auctions:watch', { auction_ids: chunk })
          .then((ack: AuctionsWatchAck) => this.watched(ack, reset))
          .catch(() => undefined);
      }
    });
  }

  private watched(ack: AuctionsWatchAck, reset: boolean): void {
    if (!ack.ok) return;
    for (const a of ack.auctions) {
      if (!this.watchRefs.has(a.auction_id) || this.detailRefs.has(a.auction_id)) continue;
      if (reset) this.owner.book.forget(a.auction_id);
      const out = this.owner.book.baseline(a.auction_id, a.seq);
      setMember(this.ready, a.auction_id, true);
      for (const e of out.apply) this.owner.apply(e);
    }
  }

  /** auction:join → the snapshot replaces the cached detail; buffered events after its seq are applied. */
  private async join(id: number, refetchRest: boolean): Promise<void> {
    const s = this.owner.socket();
    const qc = this.owner.cache();
    const book = this.owner.book;
    if (!s || !qc) return;
    book.begin(id);
    const sentAt = Date.now();
    let ack: AuctionJoinAck;
    try {
      ack = await s.timeout(ACK_MS).emitWithAck('auction:join', { auction_id: id });
    } catch {
      // No answer (connection dropped meanwhile): the next connect joins again.
      if (!this.detailRefs.has(id)) book.forget(id);
      return;
    }
    if (!this.detailRefs.has(id)) {
      if (!this.watchRefs.has(id)) book.forget(id);
      return;
    }
    if (!ack.ok) {
      book.forget(id);
      return refetchDetail(qc, id);
    }
    const before = applySnapshot(qc, id, ack.auction, sentAt, refetchRest);
    this.owner.joined(id, before, ack.auction);
    const out = book.settle(id, ack.seq);
    setMember(this.ready, id, true);
    for (const e of out.apply) this.owner.apply(e);
  }
}
