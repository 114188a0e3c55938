/**
 * Smoke version of B6g (issue 11, scripts/bench/lib/memory-on-grown-db.ts): on a small database grown through the API, the
 * server and the bare socket.io baseline are measured with idle sockets, fresh and after uploads, and the
 * memory probe (lib/mem-probe.mjs) reports where each one's memory is. No memory goal is asserted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sqliteDriver } from '../../server/db/sqlite-driver';
import { afterAll, describe, expect, it } from 'vitest';
import type { Grown } from '../../scripts/bench/lib/lists-on-grown-db';
import { b6g } from '../../scripts/bench/lib/memory-on-grown-db';
import type { BenchCtx } from '../../scripts/bench/lib/benchmarks';
import { growThroughApi } from '../../scripts/bench/lib/grow';
import { sizesFor } from '../../scripts/bench/lib/options';
import { buildState } from '../../scripts/bench/lib/proc';

const hasDist = buildState() !== 'missing';
const ctx: BenchCtx = { mode: 'smoke', sizes: sizesFor('smoke'), source: !hasDist, log: () => undefined, cleanup: [] };

afterAll(() => {
  for (const d of ctx.cleanup) fs.rmSync(d, { recursive: true, force: true });
});

describe('B6g (smoke)', () => {
  it('measures the server on a grown database against bare socket.io, with the probe breakdown', { timeout: 120_000 }, async () => {
    const g = await growThroughApi({ auctions: 20, sellers: 2, concurrency: 2, source: ctx.source });
    ctx.cleanup.push(g.dir);
    const grown: Grown = { dir: g.dir, auctions: g.auctions, reused: false, rows: [] };
    const rows = await b6g(ctx, grown);
    expect(rows.map((r) => r.id)).toEqual(['B6g', 'B6g up']);
    for (const r of rows) {
      expect(r.subject).toMatch(/^\d+ MB$/);
      expect(r.baseline).toMatch(/^\d+ MB bare socket\.io$/);
    }
    const notes = rows.flatMap((r) => r.notes ?? []);
    // Both processes answered the probe: server, bare socket.io, and the server after uploads.
    expect(notes.filter((n) => /RSS \d+(\.\d)? MB = anon .* V8 heap \d/.test(n))).toHaveLength(3);
    // B6g's uploads went to its own copy: the grown database (shared with B3g in a run) still has its 20.
    const db = new (sqliteDriver())(path.join(g.dir, 'aukcije.sqlite'), { readonly: true });
    try {
      expect((db.prepare('select count(*) as n from auctions').get() as { n: number }).n).toBe(20);
    } finally {
      db.close();
    }
  });
});
