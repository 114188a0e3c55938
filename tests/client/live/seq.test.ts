import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_HOLD_MS, SeqBook, type SeqEvent } from '../../../client/src/features/live/seq';

const ev = (auction_id: number, seq: number): SeqEvent => ({ auction_id, seq });
const seqs = (list: SeqEvent[]) => list.map((e) => e.seq);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A book whose gaps (holds that ran out) are recorded, per auction. */
function bookWithGaps() {
  const gaps: number[] = [];
  const book = new SeqBook<SeqEvent>({ onGap: (id) => gaps.push(id) });
  return { book, gaps };
}

describe('SeqBook: events applied at most once and in order (docs/socket-contract.md §4)', () => {
  it('ignores events of auctions it does not follow', () => {
    const book = new SeqBook<SeqEvent>();
    expect(book.push(ev(1, 1))).toEqual({ apply: [] });
  });

  it('buffers events that arrive before the join ack, then applies those after the snapshot, in order', () => {
    const book = new SeqBook<SeqEvent>();
    book.begin(7);
    expect(book.push(ev(7, 6)).apply).toEqual([]);
    expect(book.push(ev(7, 5)).apply).toEqual([]);
    expect(book.push(ev(7, 4)).apply).toEqual([]);
    expect(book.get(7)).toBeUndefined();
    // The snapshot already contains seq 4: only 5 and 6 are applied, sorted.
    const out = book.settle(7, 4);
    expect(seqs(out.apply)).toEqual([5, 6]);
    expect(book.isHolding(7)).toBe(false);
    expect(book.get(7)).toBe(6);
  });

  it('drops stale and duplicate events, applies the next one, reports a gap once a hold runs out', () => {
    const { book, gaps } = bookWithGaps();
    book.begin(1);
    book.settle(1, 10);
    expect(book.push(ev(1, 9)).apply).toEqual([]);
    expect(book.push(ev(1, 10)).apply).toEqual([]);
    expect(seqs(book.push(ev(1, 11)).apply)).toEqual([11]);
    expect(book.push(ev(1, 11)).apply).toEqual([]); // a duplicate is not applied twice
    expect(book.push(ev(1, 14))).toEqual({ apply: [] });
    expect(gaps).toEqual([]);
    vi.advanceTimersByTime(DEFAULT_HOLD_MS);
    expect(gaps).toEqual([1]);
    // After the gap the book continues from there (the caller refetched a snapshot containing 14).
    expect(seqs(book.push(ev(1, 15)).apply)).toEqual([15]);
  });

  it('reports a gap inside the buffered events once the hold runs out', () => {
    const { book, gaps } = bookWithGaps();
    book.begin(2);
    book.push(ev(2, 3));
    book.push(ev(2, 5));
    const out = book.settle(2, 2);
    expect(seqs(out.apply)).toEqual([3]);
    expect(book.isHolding(2)).toBe(true);
    vi.advanceTimersByTime(DEFAULT_HOLD_MS);
    expect(gaps).toEqual([2]);
    expect(book.get(2)).toBe(5);
  });

  it('keeps auctions apart', () => {
    const book = new SeqBook<SeqEvent>();
    book.baseline(1, 0);
    book.baseline(2, 100);
    expect(seqs(book.push(ev(1, 1)).apply)).toEqual([1]);
    expect(seqs(book.push(ev(2, 101)).apply)).toEqual([101]);
    expect(book.push(ev(2, 1)).apply).toEqual([]);
  });

  it('a list baseline never moves a known seq back and waits for a pending join', () => {
    const book = new SeqBook<SeqEvent>();
    book.baseline(3, 5);
    book.baseline(3, 2);
    expect(book.get(3)).toBe(5);
    book.begin(3);
    book.baseline(3, 9);
    expect(book.isBuffering(3)).toBe(true);
    book.settle(3, 6);
    expect(book.get(3)).toBe(6);
    book.forget(3);
    expect(book.follows(3)).toBe(false);
  });

  it('property: any delivery order with duplicates applies each seq after the snapshot exactly once, ascending', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.nat(), { maxLength: 80 }),
        fc.integer({ min: 0, max: 80 }),
        (snapshot, count, shuffleKeys, ackAfter) => {
          // Events 1..snapshot+count, some delivered twice, in a shuffled order; the ack comes mid-stream.
          const all = Array.from({ length: snapshot + count }, (_, i) => ev(9, i + 1));
          const delivered = [...all, ...all.filter((_, i) => i % 3 === 0)]
            .map((e, i) => ({ e, k: shuffleKeys[i % Math.max(1, shuffleKeys.length)] ?? i }))
            .sort((a, b) => a.k - b.k)
            .map((x) => x.e);
          const { book, gaps } = bookWithGaps();
          book.begin(9);
          const applied: number[] = [];
          delivered.forEach((e, i) => {
            if (i === Math.min(ackAfter, delivered.length)) {
              applied.push(...seqs(book.settle(9, snapshot).apply));
            }
            applied.push(...seqs(book.push(e).apply));
          });
          if (book.isBuffering(9)) applied.push(...seqs(book.settle(9, snapshot).apply));
          vi.runAllTimers();
          // Every event arrived within the hold: each one after the snapshot applied once, in order, no reload.
          expect(applied).toEqual(all.filter((e) => e.seq > snapshot).map((e) => e.seq));
          expect(gaps).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('SeqBook: events of several nodes may cross (an early event waits for the missing seq)', () => {
  it('holds an early event until the missing one arrives, then applies both in order, without a gap', () => {
    const { book, gaps } = bookWithGaps();
    book.baseline(1, 10);
    expect(book.push(ev(1, 12)).apply).toEqual([]);
    expect(book.isHolding(1)).toBe(true);
    vi.advanceTimersByTime(DEFAULT_HOLD_MS - 50);
    expect(seqs(book.push(ev(1, 11)).apply)).toEqual([11, 12]);
    expect(book.isHolding(1)).toBe(false);
    vi.advanceTimersByTime(DEFAULT_HOLD_MS * 2);
    expect(gaps).toEqual([]);
    expect(book.get(1)).toBe(12);
  });

  it('waits about 300 ms, no longer: then one gap, and the held events are not applied (the refetch shows them)', () => {
    const { book, gaps } = bookWithGaps();
    book.baseline(1, 10);
    book.push(ev(1, 13));
    book.push(ev(1, 12));
    book.push(ev(1, 13));
    expect(DEFAULT_HOLD_MS).toBe(300);
    vi.advanceTimersByTime(299);
    expect(gaps).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(gaps).toEqual([1]);
    expect(book.isHolding(1)).toBe(false);
    expect(book.push(ev(1, 11)).apply).toEqual([]); // older than what the refetch shows
    expect(seqs(book.push(ev(1, 14)).apply)).toEqual([14]);
    vi.runAllTimers();
    expect(gaps).toEqual([1]);
  });

  it('fills several holes one by one, applying each run as soon as it is complete', () => {
    const { book, gaps } = bookWithGaps();
    book.baseline(4, 10);
    book.push(ev(4, 14));
    book.push(ev(4, 12));
    expect(seqs(book.push(ev(4, 11)).apply)).toEqual([11, 12]);
    expect(book.isHolding(4)).toBe(true);
    expect(seqs(book.push(ev(4, 13)).apply)).toEqual([13, 14]);
    vi.runAllTimers();
    expect(gaps).toEqual([]);
  });

  it('after one hole is filled, the next one waits its own 300 ms from when its first event arrived', () => {
    const { book, gaps } = bookWithGaps();
    book.baseline(8, 0);
    book.push(ev(8, 2));
    vi.advanceTimersByTime(200);
    book.push(ev(8, 4));
    vi.advanceTimersByTime(50);
    expect(seqs(book.push(ev(8, 1)).apply)).toEqual([1, 2]);
    vi.advanceTimersByTime(240); // 4 has waited 290 ms
    expect(gaps).toEqual([]);
    expect(seqs(book.push(ev(8, 3)).apply)).toEqual([3, 4]);
    book.push(ev(8, 6));
    vi.advanceTimersByTime(DEFAULT_HOLD_MS);
    expect(gaps).toEqual([8]);
  });

  it('keeps the holds of auctions apart', () => {
    const { book, gaps } = bookWithGaps();
    book.baseline(1, 0);
    book.baseline(2, 0);
    book.push(ev(1, 2));
    book.push(ev(2, 2));
    expect(seqs(book.push(ev(1, 1)).apply)).toEqual([1, 2]);
    vi.advanceTimersByTime(DEFAULT_HOLD_MS);
    expect(gaps).toEqual([2]);
  });

  it('a join sent during a hold takes the held events: the snapshot settles them, no gap fires', () => {
    const { book, gaps } = bookWithGaps();
    book.baseline(5, 3);
    book.push(ev(5, 6));
    book.begin(5);
    expect(book.isHolding(5)).toBe(false);
    expect(seqs(book.settle(5, 5).apply)).toEqual([6]);
    vi.runAllTimers();
    expect(gaps).toEqual([]);
  });

  it('forgetting an auction ends its hold; a list baseline past the held events drops them', () => {
    const { book, gaps } = bookWithGaps();
    book.baseline(6, 1);
    book.push(ev(6, 3));
    book.forget(6);
    book.baseline(7, 1);
    book.push(ev(7, 3));
    book.push(ev(7, 5));
    // The list was refetched at seq 4: 3 is in it, 5 follows on directly.
    expect(seqs(book.baseline(7, 4).apply)).toEqual([5]);
    vi.runAllTimers();
    expect(gaps).toEqual([]);
    expect(book.follows(6)).toBe(false);
  });

  it('property: bids from two nodes, each delayed up to 250 ms on its way, are applied exactly once, in seq order, with no reload', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 250 }), { minLength: 1, maxLength: 40 }), fc.array(fc.nat(), { maxLength: 40 }), (delays, dupes) => {
        const { book, gaps } = bookWithGaps();
        book.baseline(3, 0);
        const applied: number[] = [];
        // Bid i+1 is sent 10 ms after bid i and reaches this watcher `delays[i]` ms later (its node, then Redis).
        delays.forEach((d, i) => setTimeout(() => applied.push(...seqs(book.push(ev(3, i + 1)).apply)), i * 10 + d));
        for (const k of dupes) setTimeout(() => applied.push(...seqs(book.push(ev(3, (k % delays.length) + 1)).apply)), 300 + delays.length * 10);
        vi.runAllTimers();
        expect(applied).toEqual(delays.map((_, i) => i + 1));
        expect(gaps).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});
