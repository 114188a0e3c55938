import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { ApiClient } from '../../support/http';
import { CATEGORY_VALUES } from '@shared/categories';

describe('demo data (SEED_DEMO=1)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ SEED_DEMO: '1' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates about 60 open auctions covering every category, each with a stored picture', async () => {
    const list = (await new ApiClient(t.url).get('/api/auctions/?page=1&page_size=100')).body;
    expect(list.count).toBeGreaterThanOrEqual(55);
    expect(new Set(list.results.map((c: { category: string }) => c.category))).toEqual(new Set(CATEGORY_VALUES));
    for (const card of list.results) {
      expect(card.first_image).toMatch(/^\/media\//);
      expect(fs.existsSync(path.join(t.dataDir, card.first_image ?? ''))).toBe(true);
    }
  });

  it('keeps prices and counts consistent with the bids, each bid ≥ previous + 10, never by the seller', async () => {
    const auctions = await t.ctx.db.selectFrom('auctions').selectAll().execute();
    const bids = await t.ctx.db.selectFrom('bids').selectAll().orderBy('id').execute();
    expect(bids.length).toBeGreaterThan(20);
    for (const a of auctions) {
      const mine = bids.filter((b) => b.auction_id === a.id);
      expect(a.bid_count).toBe(mine.length);
      let prev = a.starting_price;
      for (const b of mine) {
        expect(b.amount).toBeGreaterThanOrEqual(prev + 10);
        expect(b.bidder_id).not.toBe(a.seller_id);
        expect(Date.parse(b.created_at)).toBeLessThanOrEqual(Date.now());
        prev = b.amount;
      }
      expect(a.current_price).toBe(prev);
    }
    expect(await t.ctx.db.selectFrom('comments').select('id').execute()).not.toHaveLength(0);
  });

  it('fills the popular carousel with 10 pictured auctions', async () => {
    const best = (await new ApiClient(t.url).get('/api/auctions/best/')).body;
    expect(best).toHaveLength(10);
    expect(best.every((c: { first_image: string | null; bid_count: number }) => c.first_image && c.bid_count > 0)).toBe(true);
  });

  it('has an auction ending within minutes and others days away', async () => {
    const ends = (await t.ctx.db.selectFrom('auctions').select('end_date').execute()).map((a) => Date.parse(a.end_date) - Date.now());
    expect(Math.min(...ends)).toBeLessThan(5 * 60_000);
    expect(Math.min(...ends)).toBeGreaterThan(0);
    expect(Math.max(...ends)).toBeGreaterThan(3 * 24 * 3600_000);
  });

  it('finds demo auctions by search in both scripts', async () => {
    const c = new ApiClient(t.url);
    const latin = (await c.get('/api/auctions/?q=sesir')).body;
    expect(latin.map((x: { title: string }) => x.title)).toContain('Šešir od filca, ručni rad');
    const cyr = (await c.get(`/api/auctions/?q=${encodeURIComponent('шешир')}`)).body;
    expect(cyr).toEqual(latin);
  });

  it('does not seed again on a restart with the same DATA_DIR', async () => {
    const before = (await t.ctx.db.selectFrom('auctions').select('id').execute()).length;
    await t.close();
    t = await startTestServer({ SEED_DEMO: '1' }, { dataDir: t.dataDir });
    expect((await t.ctx.db.selectFrom('auctions').select('id').execute()).length).toBe(before);
  });
});
