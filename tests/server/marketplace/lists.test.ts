import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { pastTheCache } from '../../support/list-cache';
import { createUser, loginAs, userRowsWritten } from '../../support/factories';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { recordStatementsOf } from '../../support/statements';

type Card = { id: number; status: string; current_price: number; end_date: string; category: string; seller: number; first_image: string | null; bid_count: number };

// A fresh server per file: the public lists are asserted as a whole.
let t: TestServer;
let visitor: ApiClient;
const H = 3600 * 1000;
beforeAll(async () => {
  t = await startTestServer();
  visitor = new ApiClient(t.url);
});
afterAll(async () => {
  await t.close();
});

const ids = (cards: Card[]) => cards.map((c) => c.id);

async function bid(auctionId: number, bidderId: number, amount: number, agoMs = 0) {
  await t.ctx.db
    .insertInto('bids')
    .values({ auction_id: auctionId, bidder_id: bidderId, amount, created_at: new Date(Date.now() - agoMs).toISOString() })
    .execute();
  await t.ctx.db
    .updateTable('auctions')
    .set((eb) => ({ bid_count: eb('bid_count', '+', 1), current_price: amount }))
    .where('id', '=', auctionId)
    .execute();
}

describe('public lists', () => {
  let seller: Awaited<ReturnType<typeof createUser>>;
  let blocked: Awaited<ReturnType<typeof createUser>>;
  let a: { soon: number; late: number; cheapToys: number; ended: number; closed: number; blockedOpen: number };

  beforeAll(async () => {
    seller = await createUser(t.ctx);
    blocked = await createUser(t.ctx);
    a = {
      soon: (await createAuction(t.ctx, seller.id, { endsInMs: 1 * H, starting_price: 5000, category: 'electronics' })).id,
      late: (await createAuction(t.ctx, seller.id, { endsInMs: 48 * H, starting_price: 300, category: 'electronics' })).id,
      cheapToys: (await createAuction(t.ctx, seller.id, { endsInMs: 5 * H, starting_price: 100, category: 'toys' })).id,
      ended: (await createAuction(t.ctx, seller.id, { endsInMs: -H })).id,
      closed: (await createAuction(t.ctx, seller.id, { endsInMs: H, status: 'ended' })).id,
      blockedOpen: (await createAuction(t.ctx, blocked.id, { endsInMs: 2 * H })).id,
    };
    await t.ctx.db.updateTable('users').set({ blocked_at: new Date().toISOString() }).where('id', '=', blocked.id).execute();
    await userRowsWritten(t.ctx);
  });

  it('GET /api/auctions/ shows open auctions of unblocked sellers, soonest end first, as cards', async () => {
    const res = await visitor.get('/api/auctions/');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([a.soon, a.cheapToys, a.late]);
    expect(res.body[0]).toEqual({
      id: a.soon,
      title: expect.any(String),
      description: expect.any(String),
      current_price: 5000,
      end_date: expect.stringMatching(/Z$/),
      category: 'electronics',
      city: 'Beograd',
      seller: seller.id,
      first_image: null,
      images: [],
      bid_count: 0,
      status: 'active',
      watched: false,
      buy_now_price: null,
      has_reserve: false,
      reserve_met: null,
      outcome: null,
      relisted_as: null,
    });
  });

  it('filters by category; all-auctions means every category', async () => {
    expect(ids((await visitor.get('/api/auctions/?category=toys')).body)).toEqual([a.cheapToys]);
    expect(ids((await visitor.get('/api/auctions/?category=all-auctions')).body)).toEqual([a.soon, a.cheapToys, a.late]);
    expect((await visitor.get('/api/auctions/?category=furniture')).body).toEqual([]);
    expect((await visitor.get('/api/auctions/?category=weapons')).body).toEqual([]);
  });

  it.each([
    ['endDateAsc', () => [a.soon, a.cheapToys, a.late]],
    ['endDateDesc', () => [a.late, a.cheapToys, a.soon]],
    ['priceAsc', () => [a.cheapToys, a.late, a.soon]],
    ['priceDesc', () => [a.soon, a.late, a.cheapToys]],
  ])('sorts by %s', async (sort, expected) => {
    expect(ids((await visitor.get(`/api/auctions/?sort=${sort}`)).body)).toEqual(expected());
  });

  it('pages: {count, next, previous, results} with page numbers', async () => {
    const p1 = (await visitor.get('/api/auctions/?page=1&page_size=2')).body;
    expect(p1).toEqual({ count: 3, next: 2, previous: null, results: expect.any(Array) });
    expect(ids(p1.results)).toEqual([a.soon, a.cheapToys]);
    const p2 = (await visitor.get('/api/auctions/?page=2&page_size=2')).body;
    expect(p2).toMatchObject({ count: 3, next: null, previous: 1 });
    expect(ids(p2.results)).toEqual([a.late]);
    const p9 = (await visitor.get('/api/auctions/?page=9&page_size=2')).body;
    expect(p9).toMatchObject({ count: 3, next: null, previous: 8, results: [] });
  });

  it('defaults page_size to 20 and caps it at 100', async () => {
    const extra = await createUser(t.ctx);
    for (let i = 0; i < 105; i++) await createAuction(t.ctx, extra.id, { endsInMs: 100 * H + i * 1000, category: 'other' });
    const d = (await visitor.get('/api/auctions/?category=other&page=1')).body;
    expect(d.count).toBe(105);
    expect(d.results).toHaveLength(20);
    const big = (await visitor.get('/api/auctions/?category=other&page=1&page_size=500')).body;
    expect(big.results).toHaveLength(100);
    expect(big.next).toBe(2);
    await t.ctx.db.deleteFrom('auctions').where('seller_id', '=', extra.id).execute();
  });

  it('refuses a malformed page with 400 JSON, and ignores an unknown sort', async () => {
    const bad = await visitor.get('/api/auctions/?page=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.page).toEqual(['Broj stranice nije ispravan.']);
    expect((await visitor.get('/api/auctions/?page=0')).status).toBe(400);
    expect((await visitor.get('/api/auctions/?page=1&page_size=-3')).body.detail).toBe('Veličina stranice nije ispravna.');
    expect((await visitor.get('/api/auctions/?q=a&q=b')).status).toBe(400);
    expect((await visitor.get('/api/auctions/?sort=hack')).status).toBe(200);
  });

  it('GET /api/all-auction-items/ is the public list for visitors and users, everything for an admin', async () => {
    expect(ids((await visitor.get('/api/all-auction-items/')).body)).toEqual([a.soon, a.cheapToys, a.late]);
    const user = await loginAs(t.url, await createUser(t.ctx));
    expect(ids((await user.get('/api/all-auction-items/')).body)).toEqual([a.soon, a.cheapToys, a.late]);
    const admin = await loginAs(t.url, await createUser(t.ctx, { admin: true }));
    const all: Card[] = (await admin.get('/api/all-auction-items/')).body;
    expect(ids(all).sort()).toEqual(Object.values(a).sort());
    expect(all.find((c) => c.id === a.ended)!.status).toBe('ended');
    expect(all.find((c) => c.id === a.closed)!.status).toBe('ended');
  });

  it("a blocked seller's open auctions come back when the seller is unblocked", async () => {
    // Written straight into the database (the admin routes' own test is list-counts.test.ts): past the list cache.
    await t.ctx.db.updateTable('users').set({ blocked_at: null }).where('id', '=', blocked.id).execute();
    await userRowsWritten(t.ctx);
    expect(ids((await visitor.get(pastTheCache('/api/auctions/'))).body)).toContain(a.blockedOpen);
    await t.ctx.db.updateTable('users').set({ blocked_at: new Date().toISOString() }).where('id', '=', blocked.id).execute();
    await userRowsWritten(t.ctx);
    expect(ids((await visitor.get(pastTheCache('/api/auctions/'))).body)).not.toContain(a.blockedOpen);
  });
});

describe('own lists', () => {
  it('GET /api/my-auctions/ needs a login and includes ended auctions, marked', async () => {
    expect((await visitor.get('/api/my-auctions/')).status).toBe(403);
    const me = await createUser(t.ctx);
    const c = await loginAs(t.url, me);
    const open = await createAuction(t.ctx, me.id, { endsInMs: H });
    const ended = await createAuction(t.ctx, me.id, { endsInMs: -H, status: 'ended' });
    await createAuction(t.ctx, (await createUser(t.ctx)).id);
    const list: Card[] = (await c.get('/api/my-auctions/')).body;
    expect(list.map((x) => [x.id, x.status])).toEqual([
      [ended.id, 'ended'],
      [open.id, 'active'],
    ]);
    expect((await c.get('/api/my-auctions/?page=1')).body.count).toBe(2);
  });

  it('GET /api/all-my-biddings/ lists each auction the user bid on once, ended ones too', async () => {
    expect((await visitor.get('/api/all-my-biddings/')).status).toBe(403);
    const s = await createUser(t.ctx);
    const me = await createUser(t.ctx);
    const c = await loginAs(t.url, me);
    const x = await createAuction(t.ctx, s.id, { endsInMs: 2 * H });
    const y = await createAuction(t.ctx, s.id, { endsInMs: H });
    const notMine = await createAuction(t.ctx, s.id, { endsInMs: H });
    await bid(x.id, me.id, 1010);
    await bid(x.id, me.id, 1020);
    await bid(y.id, me.id, 1010);
    await t.ctx.db.updateTable('auctions').set({ status: 'ended', end_date: new Date(Date.now() - 1000).toISOString() }).where('id', '=', y.id).execute();
    await bid(notMine.id, s.id, 1010);
    const list: Card[] = (await c.get('/api/all-my-biddings/')).body;
    expect(list.map((z) => [z.id, z.status, z.bid_count])).toEqual([
      [y.id, 'ended', 1],
      [x.id, 'active', 2],
    ]);
  });
});

describe('GET /api/auctions/best/', () => {
  it('ranks open auctions by bids in the last 24 h, then bid count, then soonest end; at most 10', async () => {
    // A separate category keeps this independent of the other tests' auctions: check relative order.
    const s = await createUser(t.ctx);
    const b = await createUser(t.ctx);
    const hot = await createAuction(t.ctx, s.id, { endsInMs: 30 * H, category: 'food' });
    const oldFavourite = await createAuction(t.ctx, s.id, { endsInMs: 30 * H, category: 'food' });
    const quietSoon = await createAuction(t.ctx, s.id, { endsInMs: 0.5 * H, category: 'food' });
    const endedHot = await createAuction(t.ctx, s.id, { endsInMs: -H, category: 'food' });
    await bid(hot.id, b.id, 1010, 60 * H);
    await bid(hot.id, b.id, 1020);
    // More bids in total than `hot`, but none in the last 24 h.
    for (let i = 1; i <= 5; i++) await bid(oldFavourite.id, b.id, 1000 + i * 10, 48 * H);
    for (let i = 1; i <= 3; i++) await bid(endedHot.id, b.id, 1000 + i * 10);
    const res = await visitor.get('/api/auctions/best/');
    expect(res.status).toBe(200);
    const best: number[] = ids(res.body);
    expect(best.length).toBeLessThanOrEqual(10);
    // Fewer than 10 open auctions exist in this file, so all of ours are in; compare their relative order.
    const ours = [hot.id, oldFavourite.id, quietSoon.id, endedHot.id];
    expect(best.filter((id) => ours.includes(id))).toEqual([hot.id, oldFavourite.id, quietSoon.id]);
    expect(res.body[0]).toHaveProperty('first_image');
  });
});

describe('no N+1 queries', () => {
  it('a page of 40 cards with images costs as many SQL statements as a page of 2', async () => {
    const s = await createUser(t.ctx);
    const made: number[] = [];
    for (let i = 0; i < 40; i++) {
      const a = await createAuction(t.ctx, s.id, { category: 'media', endsInMs: 200 * H + i * 1000 });
      await t.ctx.db
        .insertInto('auction_images')
        .values({ auction_id: a.id, position: 0, card_path: `00/${'a'.repeat(32)}-card.webp`, large_path: `00/${'a'.repeat(32)}-large.webp`, width: 1, height: 1, created_at: new Date().toISOString() })
        .execute();
      made.push(a.id);
    }
    // Executed statements (tests/support/statements.ts), without the session store's own: the visitor's
    // session is not part of the list's cost.
    const log = recordStatementsOf(t.ctx);
    const countOnce = async (size: number) => {
      log.reset();
      // Every run a URL of its own: the second would come from the list cache, without SQL.
      const res = await visitor.get(pastTheCache(`/api/auctions/?category=media&page=1&page_size=${size}`));
      expect(res.body.results).toHaveLength(size);
      expect(res.body.results.every((c: Card) => c.first_image?.endsWith('-card.webp'))).toBe(true);
      return log.sources.length;
    };
    // The fewest of three runs (the recorder leaves the closer's statements out; this guards against anything else).
    const count = async (size: number) => Math.min(await countOnce(size), await countOnce(size), await countOnce(size));
    try {
      const small = await count(2);
      const large = await count(40);
      expect(small).toBeGreaterThanOrEqual(2); // count + page (the hook really sees queries)
      expect(large).toBe(small);
      expect(large).toBeLessThanOrEqual(3);
    } finally {
      log.stop();
      await t.ctx.db.deleteFrom('auctions').where('id', 'in', made).execute();
    }
  });
});
