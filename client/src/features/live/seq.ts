import { seqVerdict } from '@shared/socket-helpers';

/** An auction-room event as the live layer queues it. */
export interface SeqEvent {
  auction_id: number;
  seq: number;
}

/** What to do after an event arrived or a snapshot settled: apply these, in order. */
export interface SeqOutcome<E extends SeqEvent> {
  apply: E[];
}

export interface SeqBookOptions {
  /**
   * How long an early event (a seq past the next one) waits for the missing ones before the auction counts
   * as having a gap. Events of one auction come from different nodes when bids land on different nodes, and
   * two of them may cross on the way: waiting a moment spares a needless reload.
   */
  holdMs?: number;
  /** A hold ran out: the missing events never came. The caller refetches what the screen shows. */
  onGap?: (auctionId: number) => void;
}

/** Long enough for an event relayed through Redis by another node to catch up; short enough to go unnoticed. */
export const DEFAULT_HOLD_MS = 300;

interface Held<E> {
  /** By seq: the event and when it arrived. */
  events: Map<number, { e: E; at: number }>;
  timer: ReturnType<typeof setTimeout>;
}

const none = <E extends SeqEvent>(): SeqOutcome<E> => ({ apply: [] });

/**
 * The per-auction sequence rule of docs/socket-contract.md §4, with the clock as its only I/O:
 * - begin(id): a join was sent: buffer that auction's events until its snapshot arrives;
 * - settle(id, seq): the snapshot (seq) is in the cache: apply the buffered events that follow it, in order;
 * - push(event): stale or a duplicate → dropped, next → applied (with the held events it unblocks), early →
 *   held for up to `holdMs`; if the hole is still there then, `onGap` (the caller refetches what the screen
 *   shows, and the book continues after the latest held seq, which that refetch contains);
 * - baseline(id, seq): a list card's seq from `auctions:watch` (the list query is its snapshot).
 * Events of auctions the book does not follow are dropped. Every event is applied at most once, in seq order.
 */
export class SeqBook<E extends SeqEvent> {
  private known = new Map<number, number>();
  private pending = new Map<number, E[]>();
  private held = new Map<number, Held<E>>();
  private readonly holdMs: number;
  private readonly onGap: (auctionId: number) => void;

  constructor(opts: SeqBookOptions = {}) {
    this.holdMs = opts.holdMs ?? DEFAULT_HOLD_MS;
    this.onGap = opts.onGap ?? (() => {});
  }

  /** The last applied seq of an auction, or undefined (not followed, or still buffering). */
  get(id: number): number | undefined {
    return this.pending.has(id) ? undefined : this.known.get(id);
  }

  isBuffering(id: number): boolean {
    return this.pending.has(id);
  }

  /** Whether early events of `id` wait for a missing one. */
  isHolding(id: number): boolean {
    return this.held.has(id);
  }

  follows(id: number): boolean {
    return this.pending.has(id) || this.known.has(id);
  }

  /** A new snapshot is coming: the held events wait for it instead (settle sorts them out). */
  begin(id: number): void {
    const waiting = this.release(id);
    const buf = this.pending.get(id) ?? [];
    buf.push(...waiting);
    this.pending.set(id, buf);
  }

  settle(id: number, seq: number): SeqOutcome<E> {
    const buffered = (this.pending.get(id) ?? []).slice().sort((a, b) => a.seq - b.seq);
    this.pending.delete(id);
    this.known.set(id, seq);
    const out = none<E>();
    for (const e of buffered) this.take(e, out);
    return out;
  }

  /** A list card's current seq (from `auctions:watch`); ignored while a join of that auction is pending. */
  baseline(id: number, seq: number): SeqOutcome<E> {
    if (this.pending.has(id)) return none();
    const k = this.known.get(id);
    if (k !== undefined && seq <= k) return none();
    this.known.set(id, seq);
    // Held events the list already shows are dropped; the rest may follow on directly now.
    const out = none<E>();
    for (const e of this.release(id)) this.take(e, out);
    return out;
  }

  push(e: E): SeqOutcome<E> {
    const buf = this.pending.get(e.auction_id);
    if (buf) {
      buf.push(e);
      return none();
    }
    if (!this.known.has(e.auction_id)) return none();
    const out = none<E>();
    this.take(e, out);
    return out;
  }

  forget(id: number): void {
    this.release(id);
    this.known.delete(id);
    this.pending.delete(id);
  }

  /** After a reconnect every followed auction needs a new snapshot: start buffering them all again. */
  ids(): number[] {
    return [...new Set([...this.known.keys(), ...this.pending.keys()])];
  }

  /** Stops every hold's timer (the live layer stops). */
  clearHolds(): void {
    for (const id of [...this.held.keys()]) this.release(id);
  }

  /** Applies `e` (and what it unblocks) into `out`, holds it if early, drops it if stale or held already. */
  private take(e: E, out: SeqOutcome<E>): void {
    const id = e.auction_id;
    const k = this.known.get(id)!;
    const v = seqVerdict(k, e.seq);
    if (v === 'stale') return;
    if (v === 'gap') return this.hold(e);
    out.apply.push(e);
    this.known.set(id, e.seq);
    const h = this.held.get(id);
    if (!h) return;
    for (let next = h.events.get(e.seq + 1); next; next = h.events.get(next.e.seq + 1)) {
      h.events.delete(next.e.seq);
      out.apply.push(next.e);
      this.known.set(id, next.e.seq);
    }
    if (h.events.size === 0) return void this.release(id);
    // One hole filled, another remains: its clock runs from the oldest event still waiting.
    clearTimeout(h.timer);
    const oldest = Math.min(...[...h.events.values()].map((x) => x.at));
    h.timer = setTimeout(() => this.expire(id), Math.max(0, oldest + this.holdMs - Date.now()));
  }

  private hold(e: E): void {
    const id = e.auction_id;
    const h = this.held.get(id);
    if (h) {
      if (!h.events.has(e.seq)) h.events.set(e.seq, { e, at: Date.now() });
      return;
    }
    const timer = setTimeout(() => this.expire(id), this.holdMs);
    this.held.set(id, { events: new Map([[e.seq, { e, at: Date.now() }]]), timer });
  }

  /** The missing events did not come in time: continue after the latest held one, which a refetch shows. */
  private expire(id: number): void {
    const waiting = this.release(id);
    if (!waiting.length || this.pending.has(id) || !this.known.has(id)) return;
    this.known.set(id, Math.max(this.known.get(id)!, ...waiting.map((e) => e.seq)));
    this.onGap(id);
  }

  /** Ends the hold of `id` and returns its events in seq order. */
  private release(id: number): E[] {
    const h = this.held.get(id);
    if (!h) return [];
    clearTimeout(h.timer);
    this.held.delete(id);
    return [...h.events.values()].map((x) => x.e).sort((a, b) => a.seq - b.seq);
  }
}
