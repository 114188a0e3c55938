import { seqVerdict } from '@shared/socket-helpers';

/** An auction-room event as the live layer queues it. */
export interface SeqEvent {
  auction_id: number;
  seq: number;
}

/** What to do after an event arrived or a snapshot settled: apply these (in order); `gap` → refetch. */
export interface SeqOutcome<E extends SeqEvent> {
  apply: E[];
  gap: boolean;
}

const none = <E extends SeqEvent>(): SeqOutcome<E> => ({ apply: [], gap: false });

/**
 * The per-auction sequence rule of docs/socket-contract.md §4, without I/O:
 * - begin(id): a join was sent: buffer that auction's events until its snapshot arrives;
 * - settle(id, seq): the snapshot (seq) is in the cache: apply the buffered events that follow it, in order;
 * - push(event): stale → dropped, next → applied, a hole → `gap` (the caller refetches what the screen shows);
 * - baseline(id, seq): a list card's seq from `auctions:watch` (the list query is its snapshot).
 * Events of auctions the book does not follow are dropped. Every event is applied at most once.
 */
export class SeqBook<E extends SeqEvent> {
  private known = new Map<number, number>();
  private pending = new Map<number, E[]>();

  /** The last applied seq of an auction, or undefined (not followed, or still buffering). */
  get(id: number): number | undefined {
    return this.pending.has(id) ? undefined : this.known.get(id);
  }

  isBuffering(id: number): boolean {
    return this.pending.has(id);
  }

  follows(id: number): boolean {
    return this.pending.has(id) || this.known.has(id);
  }

  begin(id: number): void {
    if (!this.pending.has(id)) this.pending.set(id, []);
  }

  settle(id: number, seq: number): SeqOutcome<E> {
    const buffered = (this.pending.get(id) ?? []).slice().sort((a, b) => a.seq - b.seq);
    this.pending.delete(id);
    this.known.set(id, seq);
    const out = none<E>();
    for (const e of buffered) {
      const v = seqVerdict(this.known.get(id)!, e.seq);
      if (v === 'stale') continue;
      if (v === 'gap') {
        out.gap = true;
        this.known.set(id, e.seq);
        continue;
      }
      out.apply.push(e);
      this.known.set(id, e.seq);
    }
    return out;
  }

  /** A list card's current seq (from `auctions:watch`); ignored while a join of that auction is pending. */
  baseline(id: number, seq: number): void {
    if (this.pending.has(id)) return;
    const k = this.known.get(id);
    if (k === undefined || seq > k) this.known.set(id, seq);
  }

  push(e: E): SeqOutcome<E> {
    const buf = this.pending.get(e.auction_id);
    if (buf) {
      buf.push(e);
      return none();
    }
    const k = this.known.get(e.auction_id);
    if (k === undefined) return none();
    const v = seqVerdict(k, e.seq);
    if (v === 'stale') return none();
    // On a gap the event is not applied alone: the caller refetches a snapshot that contains it, and later
    // events continue from here.
    this.known.set(e.auction_id, e.seq);
    return v === 'next' ? { apply: [e], gap: false } : { apply: [], gap: true };
  }

  forget(id: number): void {
    this.known.delete(id);
    this.pending.delete(id);
  }

  /** After a reconnect every followed auction needs a new snapshot: start buffering them all again. */
  ids(): number[] {
    return [...new Set([...this.known.keys(), ...this.pending.keys()])];
  }
}
