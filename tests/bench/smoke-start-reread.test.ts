/**
 * Smoke version of the two rows issue 11 (point 5) adds to the benchmark suite: B4 npm (`npm start` as a
 * user runs it, beside node -e 0, npm --version and node dist/server/index.js) and B1r (bidders that re-read
 * the auction after a refusal, or take the price from the 400 body). Tiny sizes; no timing goal asserted,
 * only that they produce figures and that the books of the auction add up.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchCtx } from '../../scripts/bench/lib/benchmarks';
import { b1reread } from '../../scripts/bench/lib/bidders-that-reread';
import { b4npm } from '../../scripts/bench/lib/start-as-typed';
import { sizesFor, type Row } from '../../scripts/bench/lib/options';
import { buildState } from '../../scripts/bench/lib/proc';

const hasDist = buildState() !== 'missing';
const ctx: BenchCtx = { mode: 'smoke', sizes: sizesFor('smoke'), source: !hasDist, log: () => undefined, cleanup: [] };

afterAll(() => {
  for (const d of ctx.cleanup) fs.rmSync(d, { recursive: true, force: true });
});

type Figures = { checks: Record<string, boolean>; results: { bidsPerSecond: number; statuses: Record<string, number>; rereadStatuses: Record<string, number>; errors: number }[] };

describe.concurrent('issue 11 benchmark rows (smoke)', () => {
  it('B1r: re-reading bidders and body-reading bidders bid, get refused, re-read; the books add up', { timeout: 90_000 }, async () => {
    const rows = (await b1reread(ctx)) as (Row & { data: Figures })[];
    expect(rows.map((r) => r.id)).toEqual(['B1r', 'B1r body']);
    const [reread, body] = rows;
    expect(reread.data.checks).toEqual({ priceIsMaxAccepted: true, bidCountIsAccepted: true, stepsAtLeast10: true });
    for (const row of rows) {
      expect(row.pass).toBeNull(); // a report row: null unless an error or a wrong price
      for (const r of row.data.results) {
        expect(r.bidsPerSecond).toBeGreaterThan(0);
        expect(r.errors).toBe(0);
      }
    }
    // Without the price in the 400 body, every refusal is followed by a re-read.
    expect(reread.data.results[0].rereadStatuses['200']).toBeGreaterThan(0);
    expect(body.data.results[0].statuses['400']).toBeGreaterThan(0);
  });

  it.skipIf(!hasDist)('B4 npm: npm start is measured beside node -e 0, npm --version and node dist', { timeout: 90_000 }, async () => {
    const [row] = await b4npm(ctx);
    expect(row.id).toBe('B4 npm');
    const f = row.data as { nodeE0: number[]; npmVersion: number[]; nodeServer: number[]; npmStart: number[] };
    for (const xs of [f.nodeE0, f.npmVersion, f.nodeServer, f.npmStart]) {
      expect(xs).toHaveLength(1);
      expect(xs[0]).toBeGreaterThan(0);
    }
  });
});
