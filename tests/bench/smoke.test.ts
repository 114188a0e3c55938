/**
 * Smoke version of the benchmark suite (scripts/bench, issue 6): every benchmark runs for a second or
 * two at tiny sizes so the suite cannot rot. No timing goal is asserted, only that each one produces
 * numbers and that the correctness checks hold (B1: price = highest accepted bid, bid_count = accepted,
 * each accepted amount ≥ previous + 10, no errors; B2/B7: every event delivered).
 * Without a production build the server runs from the sources (tsx) and B5 (needs dist/client) is skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { b1, b2b7, b3, b4, b5, b6, type BenchCtx } from '../../scripts/bench/lib/benchmarks';
import { sizesFor, type Row } from '../../scripts/bench/lib/options';
import { buildState, ROOT } from '../../scripts/bench/lib/proc';
import { b9 } from '../../scripts/bench/lib/many-watchers';
import type { WatchResult } from '../../scripts/bench/loadgen/watchers';

const hasDist = buildState() !== 'missing';
const ctx: BenchCtx = { mode: 'smoke', sizes: sizesFor('smoke'), source: !hasDist, log: () => undefined, cleanup: [] };

afterAll(() => {
  for (const d of ctx.cleanup) fs.rmSync(d, { recursive: true, force: true });
});

const numeric = (text: string) => /\d/.test(text);
type WithData<T> = Row & { data: T };

describe.concurrent('benchmark suite (smoke)', () => {
  it('B1: bids race on one auction, the books add up', { timeout: 90_000 }, async () => {
    const [row] = (await b1(ctx)) as WithData<{ checks: Record<string, boolean>; accepted: number; refused: number; price: number; maxAccepted: number; bid_count: number }>[];
    expect(numeric(row.subject) && numeric(row.baseline) && numeric(row.ratio)).toBe(true);
    expect(row.data.checks).toEqual({ priceIsMaxAccepted: true, bidCountIsAccepted: true, stepsAtLeast10: true, noErrors: true });
    expect(row.data.accepted).toBeGreaterThan(0);
    expect(row.data.refused).toBeGreaterThan(0);
    expect(row.data.price).toBe(row.data.maxAccepted);
    expect(row.data.bid_count).toBe(row.data.accepted);
  });

  it('B2/B7: every watcher gets every bid, with and without a slow reader', { timeout: 90_000 }, async () => {
    const rows = (await b2b7(ctx)) as WithData<{ bareRuns?: { delivered: number; p99: number }[]; subjRuns?: { delivered: number; accepted: number; p99: number }[]; slowRuns?: { delivered: number; p99: number }[] }>[];
    const [b2row, b7row] = rows;
    expect(b2row.id).toBe('B2');
    expect(b7row.id).toBe('B7');
    for (const r of [...b2row.data.bareRuns!, ...b2row.data.subjRuns!, ...b7row.data.slowRuns!]) {
      expect(r.delivered).toBe(1);
      expect(Number.isFinite(r.p99)).toBe(true);
    }
    expect(b2row.data.subjRuns![0].accepted).toBeGreaterThan(0);
  });

  it('B9: many watchers of one auction (smoke: 100), every bid delivered, connect time and RSS of both measured', { timeout: 90_000 }, async () => {
    type Run = { run: WatchResult; rss: number };
    const [row] = (await b9(ctx)) as WithData<{ bareRuns: Run[]; subjRuns: Run[] }>[];
    expect(row.id).toBe('B9');
    for (const x of [...row.data.bareRuns, ...row.data.subjRuns]) {
      expect(x.run.delivered).toBe(1);
      expect(x.run.connectMs).toBeGreaterThan(0);
      expect(x.rss).toBeGreaterThan(10 * 1024 * 1024);
    }
    expect(row.data.subjRuns[0]!.run.accepted).toBeGreaterThan(0);
  });

  it('B3: every list query answers and the SQL log lists statements', { timeout: 90_000 }, async () => {
    const { rows, sql } = await b3(ctx);
    // 9 queries, each also at 10 concurrent clients (issue 30), and the SQL row.
    expect(rows.filter((r) => r.id.startsWith('B3')).length).toBe(19);
    expect(rows.filter((r) => r.id.endsWith('@10')).map((r) => r.id)).toEqual('abcdefghi'.split('').map((l) => `B3${l}@10`));
    for (const r of rows) expect(numeric(r.subject)).toBe(true);
    for (const r of rows.slice(0, 7)) expect(r.notes ?? []).toEqual([]); // only 200s
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.some((s) => /from "auctions"/.test(s.sql))).toBe(true);
  });

  it('B4: cold start is measured against node -e 0', { timeout: 90_000 }, async () => {
    const [row] = await b4(ctx);
    expect(numeric(row.subject) && numeric(row.baseline)).toBe(true);
  });

  it.skipIf(!hasDist || !fs.existsSync(path.join(ROOT, 'dist/client/index.html')))('B5: weighs both routes in Chromium', { timeout: 90_000 }, async () => {
    const rows = await b5(ctx);
    expect(rows.map((r) => r.id)).toEqual(['B5a', 'B5b']);
    for (const r of rows) expect(r.subject).toMatch(/JS \d+(\.\d)? kB gz/);
  });

  it('B6: RSS of the server and of bare socket.io', { timeout: 90_000 }, async () => {
    const [row] = await b6(ctx);
    expect(row.subject).toMatch(/^\d+ MB$/);
    expect(row.baseline).toMatch(/^\d+ MB/);
  });
});
