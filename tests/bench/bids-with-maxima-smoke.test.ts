/**
 * Smoke version of B1auto (issue 14, scripts/bench/lib/bids-with-maxima.ts): B1's load with half the bidders on
 * maxima runs for a second at smoke size, produces its figures, and the books add up on the auction with
 * maxima (a ladder with automatic rows, the detail agrees, no errors). No timing goal is asserted.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { b1auto, ladderProblems } from '../../scripts/bench/lib/bids-with-maxima';
import type { BenchCtx } from '../../scripts/bench/lib/benchmarks';
import { sizesFor, type Row } from '../../scripts/bench/lib/options';
import { buildState } from '../../scripts/bench/lib/proc';

const hasDist = buildState() !== 'missing';
const ctx: BenchCtx = { mode: 'smoke', sizes: sizesFor('smoke'), source: !hasDist, log: () => undefined, cleanup: [] };

afterAll(() => {
  for (const d of ctx.cleanup) fs.rmSync(d, { recursive: true, force: true });
});

describe('B1auto (smoke)', () => {
  it('the ladder check refuses a repeat, a short manual step and an automatic row not above the previous', () => {
    expect(ladderProblems([{ amount: 1010, auto: false }, { amount: 1015, auto: true }, { amount: 1025, auto: false }], 1000)).toEqual([]);
    expect(ladderProblems([{ amount: 1010, auto: false }, { amount: 1015, auto: false }], 1000)).toEqual(['row 2: 1015 below 1020']);
    expect(ladderProblems([{ amount: 1010, auto: false }, { amount: 1010, auto: true }], 1000)).toEqual(['row 2: 1010 repeats', 'row 2: 1010 below 1011']);
  });

  it('half the bidders on maxima (as users bid, and the tight loop): figures, automatic rows, a correct ladder and no errors', { timeout: 120_000 }, async () => {
    const [row, tight] = (await b1auto(ctx)) as (Row & { data: { checks: Record<string, boolean>; rows: number; autoRows: number } })[];
    expect(row.id).toBe('B1auto');
    expect(row.subject).toMatch(/^\d[\d,]* answers\/s/);
    expect(row.ratio).toMatch(/^\d+\.\d+×$/);
    expect(row.data.checks).toEqual({ ladder: true, detailIsLastRow: true, someAutomaticRows: true, noErrors: true });
    expect(row.data.autoRows).toBeGreaterThan(0);
    // The old tight loop (every maxima bidder PUTs after every answer) is reported without a goal.
    expect(tight.id).toBe('B1auto tight');
    expect(tight.data.checks).toEqual({ ladder: true, detailIsLastRow: true, someAutomaticRows: true, noErrors: true });
  });
});
