/**
 * Smoke version of the several-nodes rows (scripts/bench/lib/cluster.ts): B1 and B2 on one PostgreSQL + Redis
 * node and on two nodes, next to the SQLite node, and B3 on PostgreSQL, each for a second or two at tiny
 * sizes. It proves that each row runs, prints figures and that the books add up; it asserts no timing goal.
 * Needs PostgreSQL and Redis (TEST_DATABASE_URL / TEST_REDIS_URL, as the multinode suites); the run's
 * databases and Redis keys are removed afterwards.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchCtx } from '../../scripts/bench/lib/benchmarks';
import { b1nodes, b2nodes, b3pg } from '../../scripts/bench/lib/cluster';
import { sizesFor, type Row } from '../../scripts/bench/lib/options';
import { buildState } from '../../scripts/bench/lib/proc';

const ctx: BenchCtx = { mode: 'smoke', sizes: sizesFor('smoke'), source: buildState() === 'missing', log: () => undefined, cleanup: [] };

afterAll(() => {
  for (const d of ctx.cleanup) fs.rmSync(d, { recursive: true, force: true });
});

const numeric = (text: string) => /\d/.test(text);
type WithData<T> = Row & { data: T };

describe('benchmark suite, several nodes (smoke)', () => {
  it('B1pg/B1x2: bids race on one PostgreSQL node and on two, the books add up', { timeout: 120_000 }, async () => {
    const rows = (await b1nodes(ctx)) as WithData<{ checks: Record<string, boolean>; accepted: number }>[];
    expect(rows.map((r) => r.id)).toEqual(['B1pg', 'B1x2']);
    for (const r of rows) {
      expect(numeric(r.subject) && numeric(r.baseline) && numeric(r.ratio)).toBe(true);
      expect(r.data.checks).toEqual({ priceIsMaxAccepted: true, bidCountIsAccepted: true, noErrors: true });
      expect(r.data.accepted).toBeGreaterThan(0);
    }
  });

  it('B2pg/B2x2: every watcher, on either node, gets every bid', { timeout: 120_000 }, async () => {
    const rows = (await b2nodes(ctx)) as WithData<{ runs: { delivered: number; accepted: number; p99: number }[] }>[];
    expect(rows.map((r) => r.id)).toEqual(['B2pg', 'B2x2']);
    for (const r of rows) {
      expect(numeric(r.subject) && numeric(r.baseline)).toBe(true);
      for (const run of r.data.runs) {
        expect(run.delivered).toBe(1);
        expect(run.accepted).toBeGreaterThan(0);
        expect(Number.isFinite(run.p99)).toBe(true);
      }
    }
  });

  it('B3pg: every list query answers on PostgreSQL', { timeout: 120_000 }, async () => {
    const rows = await b3pg(ctx, ctx.sizes.b3pg.auctions);
    const letters = 'abcdefghi'.split('');
    expect(rows.map((r) => r.id)).toEqual([...letters.map((l) => `B3pg-${l}`), ...letters.map((l) => `B3pg-${l}@10`)]);
    for (const r of rows) {
      expect(r.subject).toMatch(/^p95 [\d.]+ ms, [\d,]+ req\/s$/);
      expect(r.notes ?? []).toEqual([]); // only 200s
    }
  });
});
