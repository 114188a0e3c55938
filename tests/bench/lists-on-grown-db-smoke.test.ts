/**
 * Smoke version of B3g (issue 11, scripts/bench/lib/lists-on-grown-db.ts) and of its grower (lib/grow.ts): a database grown
 * through the real server and HTTP API holds exactly what was asked for (every auction by a logged-in seller,
 * with its one image), and B3g's list rows on it answer only 200s. No timing goal is asserted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sqliteDriver } from '../../server/db/sqlite-driver';
import { afterAll, describe, expect, it } from 'vitest';
import { b3g } from '../../scripts/bench/lib/lists-on-grown-db';
import type { BenchCtx } from '../../scripts/bench/lib/benchmarks';
import { growThroughApi } from '../../scripts/bench/lib/grow';
import { sizesFor } from '../../scripts/bench/lib/options';
import { buildState } from '../../scripts/bench/lib/proc';

const hasDist = buildState() !== 'missing';
const ctx: BenchCtx = { mode: 'smoke', sizes: sizesFor('smoke'), source: !hasDist, log: () => undefined, cleanup: [] };

afterAll(() => {
  for (const d of ctx.cleanup) fs.rmSync(d, { recursive: true, force: true });
});

describe('B3g (smoke)', () => {
  it('the grower creates every auction through the API, each with one image, spread over its sellers', { timeout: 90_000 }, async () => {
    const grown = await growThroughApi({ auctions: 30, sellers: 3, concurrency: 3, source: ctx.source });
    ctx.cleanup.push(grown.dir);
    expect(grown.perSecond).toBeGreaterThan(0);
    const db = new (sqliteDriver())(path.join(grown.dir, 'aukcije.sqlite'), { readonly: true });
    try {
      const bySeller = db.prepare(`select seller_id, count(*) as n from auctions group by seller_id order by seller_id`).all() as { seller_id: number; n: number }[];
      expect(bySeller).toEqual(grown.sellers.map((s) => ({ seller_id: s.id, n: 10 })));
      const images = db.prepare(`select count(*) as n, count(distinct auction_id) as auctions from auction_images`).get() as { n: number; auctions: number };
      expect(images).toEqual({ n: 30, auctions: 30 });
      // Nothing but the server wrote the auctions: open, listed, searchable.
      expect((db.prepare(`select coalesce(sum(n), 0) as n from open_auction_counts`).get() as { n: number }).n).toBe(30);
    } finally {
      db.close();
    }
  });

  it('B3g grows its database and every list query answers', { timeout: 120_000 }, async () => {
    const rows = await b3g(ctx);
    const letters = 'abcdefghij'.split('');
    expect(rows.map((r) => r.id)).toEqual(['B3g grow', ...letters.map((l) => `B3g-${l}`), ...letters.map((l) => `B3g-${l}@10`), 'B3g SQL']);
    for (const r of rows) expect(/\d/.test(r.subject)).toBe(true);
    for (const r of rows.filter((x) => x.id.startsWith('B3g-'))) expect(r.notes ?? []).toEqual([]); // only 200s
  });
});
