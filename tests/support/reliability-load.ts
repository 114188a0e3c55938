/**
 * Helpers of the reliability suites (tests/reliability): sizes for the quick and the full form, a seeded
 * PRNG, bounded parallelism, and the checks every bid load ends with.
 */
import { expect } from 'vitest';
import type { BidPlacedEvent } from '@shared/schemas/bids';
import { createUser, loginAs } from './factories';
import type { TestServer } from './app';
import type { Actor } from './marketplace';

/** `npm run test:full` sets TEST_FULL=1; `npm test` runs the quick form. */
export const FULL = process.env.TEST_FULL === '1';

/** A small deterministic PRNG (LCG) so a failing run can be replayed from its seed. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x1_0000_0000;
  };
}

/** Runs `fn` over `items` with at most `limit` at a time; results in input order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** `n` users in the database, each with an ApiClient logged in through the real POST /api/login/. */
export async function actors(t: TestServer, n: number, prefix: string): Promise<Actor[]> {
  return mapLimit(Array.from({ length: n }, (_, i) => i), 6, async (i) => {
    const user = await createUser(t.ctx, { first_name: `${prefix} ${i + 1}` });
    return { user, api: await loginAs(t.url, user) };
  });
}

/** The first message a refused bid's answer gives under `amount` (a placed bid's `amount` is its number), or undefined. */
export function refusalMessage(body: unknown): string | undefined {
  const amount = (body as { amount?: unknown } | null)?.amount;
  return Array.isArray(amount) && typeof amount[0] === 'string' ? amount[0] : undefined;
}

/** The minimum a "too low" refusal names (`Minimalna ponuda je 1230 din`), or null. */
export function minFromRefusal(body: unknown): number | null {
  const msg = refusalMessage(body);
  const m = msg ? /^Minimalna ponuda je (\d+) din$/.exec(msg) : null;
  return m ? Number(m[1]) : null;
}

export interface StoredBid {
  id: number;
  bidder_id: number;
  amount: number;
  created_at: string;
}

/** The ladder rules on bids in id order: amounts unique, each ≥ the previous (or the start) + 10. */
export function expectLadder(bids: StoredBid[], startingPrice: number): void {
  expect(new Set(bids.map((b) => b.amount)).size).toBe(bids.length);
  let previous = startingPrice;
  const steps = bids.map((b) => {
    const ok = b.amount >= previous + 10;
    previous = b.amount;
    return ok;
  });
  expect(steps.filter((ok) => !ok)).toHaveLength(0);
}

/**
 * One watcher's `bid:placed` events, checked against the stored bids after its snapshot: seq rises by
 * exactly one from the snapshot's, in arrival order, and the events are the stored bids in order.
 */
export function expectGapFree(events: BidPlacedEvent[], snapshotSeq: number, stored: StoredBid[]): void {
  const seqs = events.map((e) => e.seq);
  expect(seqs).toEqual(seqs.map((_, i) => snapshotSeq + 1 + i));
  expect(events.map((e) => [e.bid.id, e.bid.amount, e.current_price])).toEqual(stored.map((b) => [b.id, b.amount, b.amount]));
}
