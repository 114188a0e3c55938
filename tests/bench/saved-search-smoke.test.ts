/**
 * Smoke version of the saved-search row (issue 28, scripts/bench/lib/saved-search-alerts.ts): creates through the
 * API without and then with saved searches stored, and every phase-B auction's own search is notified. No timing
 * goal is asserted at this size.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchCtx } from '../../scripts/bench/lib/benchmarks';
import { sizesFor } from '../../scripts/bench/lib/options';
import { buildState } from '../../scripts/bench/lib/proc';
import { savedSearchRow } from '../../scripts/bench/lib/saved-search-alerts';

const hasDist = buildState() !== 'missing';
const ctx: BenchCtx = { mode: 'smoke', sizes: sizesFor('smoke'), source: !hasDist, log: () => undefined, cleanup: [] };

afterAll(() => {
  for (const d of ctx.cleanup) fs.rmSync(d, { recursive: true, force: true });
});

describe('SS (smoke)', () => {
  it('creates with and without saved searches, and every target search is notified', { timeout: 180_000 }, async () => {
    const rows = await savedSearchRow(ctx);
    expect(rows.map((r) => r.id)).toEqual(['SS create', 'SS notify']);
    for (const r of rows) expect(/\d/.test(r.subject)).toBe(true);
    const { creates } = ctx.sizes.ss;
    expect(rows[1].subject).toContain(`${creates}/${creates} notified`);
    expect(rows[1].notes).toEqual([]);
  });
});
