/**
 * Smoke version of the soak row (issue 29, scripts/bench/lib/soak.ts): a few seconds of the steady load of bids,
 * list reads and watchers against a server with the loop probe preloaded; the row carries RSS and event-loop
 * figures with their slopes and no errors. No timing or flatness goal is asserted at this size.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchCtx } from '../../scripts/bench/lib/benchmarks';
import { sizesFor, type Row } from '../../scripts/bench/lib/options';
import { buildState } from '../../scripts/bench/lib/proc';
import { slope, soakFigures, soakRow, type LoopSample, type SoakFigures } from '../../scripts/bench/lib/soak';

const hasDist = buildState() !== 'missing';
const ctx: BenchCtx = { mode: 'smoke', sizes: sizesFor('smoke'), source: !hasDist, log: () => undefined, cleanup: [] };

afterAll(() => {
  for (const d of ctx.cleanup) fs.rmSync(d, { recursive: true, force: true });
});

describe('Soak (smoke)', () => {
  it('the slope is least squares, and a growing RSS or event-loop delay is not flat', () => {
    expect(slope([{ x: 0, y: 1 }, { x: 1, y: 3 }, { x: 2, y: 5 }])).toBe(2);
    const sample = (i: number, rssMb: number, p99: number): LoopSample => ({ t: i * 60_000, rss: rssMb * 2 ** 20, heapUsed: 0, mean: p99, p50: p99, p99, max: p99 });
    const steady = Array.from({ length: 30 }, (_, i) => sample(i, 100 + (i % 2), 12));
    expect(soakFigures(steady).flat).toBe(true);
    expect(soakFigures(Array.from({ length: 30 }, (_, i) => sample(i, 100 + i, 12))).flat).toBe(false);
    expect(soakFigures(Array.from({ length: 30 }, (_, i) => sample(i, 100, 10 + i))).flat).toBe(false);
  });

  it('runs bids, list reads and watchers at a steady rate against the probed server: figures, slopes, no errors', { timeout: 120_000 }, async () => {
    const [row] = (await soakRow(ctx)) as (Row & { data: { figures: SoakFigures; errors: number; samples: LoopSample[]; result: { bids: { statuses: Record<string, number> }; reads: { statuses: Record<string, number> } } } })[];
    console.info(`[soak smoke] ${row!.subject}; ${row!.notes?.join('; ')}`);
    expect(row!.id).toBe('Soak');
    expect(row!.subject).toMatch(/^RSS [\d.]+ → [\d.]+ MB \(slope -?[\d.]+ MB\/min\), event-loop p99 [\d.]+ → [\d.]+ ms \(slope -?[\d.]+ ms\/min\); 0 errors$/);
    expect(row!.data.errors).toBe(0);
    expect(row!.data.samples.length).toBeGreaterThanOrEqual(5);
    expect(row!.data.result.bids.statuses['201']).toBeGreaterThan(10);
    expect(row!.data.result.reads.statuses['200']).toBeGreaterThan(20);
    expect(row!.data.figures.rssStartMb).toBeGreaterThan(20);
  });
});
