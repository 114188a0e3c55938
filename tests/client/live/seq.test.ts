import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SeqBook, type SeqEvent } from '../../../client/src/features/live/seq';

const ev = (auction_id: number, seq: number): SeqEvent => ({ auction_id, seq });
const seqs = (list: SeqEvent[]) => list.map((e) => e.seq);

describe('SeqBook: events applied at most once and in order (docs/socket-contract.md §4)', () => {
  it('ignores events of auctions it does not follow', () => {
    const book = new SeqBook<SeqEvent>();
    expect(book.push(ev(1, 1))).toEqual({ apply: [], gap: false });
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
    expect(out.gap).toBe(false);
    expect(book.get(7)).toBe(6);
  });

  it('drops stale and duplicate events, applies the next one, reports a gap', () => {
    const book = new SeqBook<SeqEvent>();
    book.begin(1);
    book.settle(1, 10);
    expect(book.push(ev(1, 9)).apply).toEqual([]);
    expect(book.push(ev(1, 10)).apply).toEqual([]);
    expect(seqs(book.push(ev(1, 11)).apply)).toEqual([11]);
    expect(book.push(ev(1, 11)).apply).toEqual([]); // a duplicate is not applied twice
    const gap = book.push(ev(1, 14));
    expect(gap).toEqual({ apply: [], gap: true });
    // After the gap the book continues from there (the caller refetched a snapshot containing 14).
    expect(seqs(book.push(ev(1, 15)).apply)).toEqual([15]);
  });

  it('reports a gap inside the buffered events', () => {
    const book = new SeqBook<SeqEvent>();
    book.begin(2);
    book.push(ev(2, 3));
    book.push(ev(2, 5));
    const out = book.settle(2, 2);
    expect(seqs(out.apply)).toEqual([3]);
    expect(out.gap).toBe(true);
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
          const book = new SeqBook<SeqEvent>();
          book.begin(9);
          const applied: number[] = [];
          let gaps = 0;
          delivered.forEach((e, i) => {
            if (i === Math.min(ackAfter, delivered.length)) {
              const o = book.settle(9, snapshot);
              applied.push(...seqs(o.apply));
              gaps += o.gap ? 1 : 0;
            }
            const o = book.push(e);
            applied.push(...seqs(o.apply));
            gaps += o.gap ? 1 : 0;
          });
          if (book.isBuffering(9)) {
            const o = book.settle(9, snapshot);
            applied.push(...seqs(o.apply));
            gaps += o.gap ? 1 : 0;
          }
          // Never twice, never out of order, never at or below the snapshot.
          expect(new Set(applied).size).toBe(applied.length);
          expect([...applied].sort((a, b) => a - b)).toEqual(applied);
          expect(applied.every((s) => s > snapshot)).toBe(true);
          // Without a gap report, everything after the snapshot was applied.
          if (gaps === 0) expect(applied).toEqual(all.filter((e) => e.seq > snapshot).map((e) => e.seq));
        },
      ),
      { numRuns: 300 },
    );
  });
});
