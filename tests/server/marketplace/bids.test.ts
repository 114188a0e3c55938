import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { actor, auctionRow, bid, notificationsOf, type Actor } from '../../support/marketplace';
import { userRowsWritten } from '../../support/factories';

let t: TestServer;
let seller: Actor;
let ana: Actor;
let bojan: Actor;

beforeAll(async () => {
  t = await startTestServer({ SOFT_CLOSE_SECONDS: '120' });
  [seller, ana, bojan] = await Promise.all([
    actor(t, { first_name: 'Sanja Prodavac', phone_number: '0601112223' }),
    actor(t, { first_name: 'Ana Anić' }),
    actor(t, { first_name: 'Bojan Bojić' }),
  ]);
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/bids/', () => {
  it('answers 403 when not logged in', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const res = await bid(new ApiClient(t.url), a.id, 1010);
    expect(res.status).toBe(403);
    expect((await auctionRow(t, a.id)).bid_count).toBe(0);
  });

  it('answers 403 for a user blocked after logging in', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const u = await actor(t);
    await t.ctx.db.updateTable('users').set({ blocked_at: new Date().toISOString() }).where('id', '=', u.user.id).execute();
    await userRowsWritten(t.ctx);
    const res = await bid(u.api, a.id, 1010);
    expect(res.status).toBe(403);
    expect((await auctionRow(t, a.id)).current_price).toBe(1000);
  });

  it('answers 403 for a user whose verification was withdrawn', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const u = await actor(t);
    await t.ctx.db.updateTable('users').set({ verified_at: null }).where('id', '=', u.user.id).execute();
    await userRowsWritten(t.ctx);
    const res = await bid(u.api, a.id, 1010);
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('Vaš nalog nije verifikovan. Proverite vaš email.');
  });

  it('accepts a bid of current price + 10 and answers 201 with the new auction state', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
    const res = await bid(ana.api, a.id, 1010);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ bidder: ana.user.id, bidder_name: 'Ana Anić', amount: 1010, current_price: 1010, bid_count: 1, end_date: a.end_date });
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const row = await auctionRow(t, a.id);
    expect(row).toMatchObject({ current_price: 1010, bid_count: 1, status: 'active' });
    expect(row.seq).toBe(a.seq + 1);
  });

  it('accepts the amount as a numeric string (form input)', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500 });
    const res = await bid(ana.api, a.id, '510');
    expect(res.status).toBe(201);
    expect(res.body.amount).toBe(510);
  });

  it('refuses a bid below current price + 10, naming the minimum', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
    const res = await bid(ana.api, a.id, 1009);
    expect(res.status).toBe(400);
    expect(res.body.amount).toEqual(['Minimalna ponuda je 1010 din']);
    expect(await bid(ana.api, a.id, 1010)).toMatchObject({ status: 201 });
    const again = await bid(bojan.api, a.id, 1010);
    expect(again.status).toBe(400);
    expect(again.body.amount).toEqual(['Minimalna ponuda je 1020 din']);
    expect((await auctionRow(t, a.id)).bid_count).toBe(1);
  });

  it('refuses zero and negative amounts as too low', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 100 });
    for (const amount of [0, -500]) {
      const res = await bid(ana.api, a.id, amount);
      expect(res.status).toBe(400);
      expect(res.body.amount).toEqual(['Minimalna ponuda je 110 din']);
    }
  });

  it("refuses a bid on the seller's own auction", async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const res = await bid(seller.api, a.id, 5000);
    expect(res.status).toBe(400);
    expect(res.body.amount).toEqual(['Ne možete licitirati na sopstvenoj aukciji.']);
  });

  it('refuses a bid on an auction whose end has passed, even before the closer marked it', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { endsInMs: -1 });
    const res = await bid(ana.api, a.id, 5000);
    expect(res.status).toBe(400);
    expect(res.body.amount).toEqual(['Aukcija je završena.']);
    const ended = await createAuction(t.ctx, seller.user.id, { status: 'ended' });
    expect((await bid(ana.api, ended.id, 5000)).body.amount).toEqual(['Aukcija je završena.']);
  });

  it('refuses amounts that are not whole numbers', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    for (const amount of [1010.5, '1010,5', 'abc', '1e4', true, [1010]]) {
      const res = await bid(ana.api, a.id, amount);
      expect(res.status, String(amount)).toBe(400);
      expect(res.body.amount).toEqual(['Ponuda mora biti ceo broj dinara.']);
    }
    const missing = await ana.api.post('/api/bids/', { auction_item_id: a.id });
    expect(missing.status).toBe(400);
    expect(missing.body.amount).toEqual(['Unesite iznos ponude.']);
    expect((await auctionRow(t, a.id)).bid_count).toBe(0);
  });

  it('answers 404 for an unknown auction and 400 for a malformed id', async () => {
    expect((await bid(ana.api, 999999, 5000)).status).toBe(404);
    const bad = await bid(ana.api, 'x' as unknown as number, 5000);
    expect(bad.status).toBe(400);
    expect(bad.body.auction_item_id).toBeDefined();
  });

  it('soft close: a bid with less than SOFT_CLOSE_SECONDS left moves the end to now + SOFT_CLOSE_SECONDS', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { endsInMs: 60_000 });
    const before = Date.now();
    const res = await bid(ana.api, a.id, 1010);
    expect(res.status).toBe(201);
    const end = Date.parse(res.body.end_date);
    expect(end).toBeGreaterThanOrEqual(before + 120_000);
    expect(end).toBeLessThanOrEqual(Date.now() + 120_000);
    expect((await auctionRow(t, a.id)).end_date).toBe(res.body.end_date);
  });

  it('soft close: a bid with more time left and a refused bid do not move the end', async () => {
    const far = await createAuction(t.ctx, seller.user.id);
    expect((await bid(ana.api, far.id, 1010)).body.end_date).toBe(far.end_date);
    const near = await createAuction(t.ctx, seller.user.id, { endsInMs: 30_000 });
    expect((await bid(ana.api, near.id, 1005)).status).toBe(400);
    expect((await auctionRow(t, near.id)).end_date).toBe(near.end_date);
  });

  it('notifies the previous leader when outbid, but not someone raising their own bid', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { title: 'Stari sat' });
    const u1 = await actor(t);
    const u2 = await actor(t);
    expect((await bid(u1.api, a.id, 1010)).status).toBe(201);
    expect((await bid(u1.api, a.id, 1100)).status).toBe(201);
    expect(await notificationsOf(t, u1.user.id, 'outbid')).toHaveLength(0);
    expect((await bid(u2.api, a.id, 1500)).status).toBe(201);
    const outbid = await notificationsOf(t, u1.user.id, 'outbid');
    expect(outbid).toHaveLength(1);
    expect(outbid[0].auction_id).toBe(a.id);
    expect(outbid[0].message).toContain(`<a href="/aukcija/${a.id}">Stari sat</a>`);
    expect(outbid[0].message).toContain('Nova cena: 1.500 din.');
    expect(outbid[0].message).toContain('\n');
    expect(await notificationsOf(t, u2.user.id)).toHaveLength(0);
  });

  it("coalesces a burst of bids into one unread 'new bid' notification for the seller", async () => {
    const s = await actor(t, { first_name: 'Prodavac Burst' });
    const a = await createAuction(t.ctx, s.user.id, { title: 'Bicikl' });
    await bid(ana.api, a.id, 1010);
    let mine = await notificationsOf(t, s.user.id, 'new_bid');
    expect(mine).toHaveLength(1);
    expect(mine[0].message).toContain('Ponuđač: Ana Anić');
    await bid(bojan.api, a.id, 1020);
    await bid(ana.api, a.id, 1030);
    mine = await notificationsOf(t, s.user.id, 'new_bid');
    expect(mine).toHaveLength(1);
    expect(mine[0].message).toContain('Broj novih ponuda: 3');
    expect(mine[0].message).toContain('1.030 din. (Ana Anić)');
    // Once read, the next bid starts a new notification.
    expect((await s.api.patch(`/api/notifications/${mine[0].id}/mark-as-read/`)).status).toBe(200);
    await bid(bojan.api, a.id, 1040);
    mine = await notificationsOf(t, s.user.id, 'new_bid');
    expect(mine).toHaveLength(2);
    expect(mine[1].message).toContain('Iznos: 1.040 din.');
  });
});

describe('GET /api/bids/{auctionId}/', () => {
  it('lists the bids oldest first with bidder names, publicly', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    await bid(ana.api, a.id, 1010);
    await bid(bojan.api, a.id, 1050);
    const res = await new ApiClient(t.url).get(`/api/bids/${a.id}/`);
    expect(res.status).toBe(200);
    expect(res.body.map((b) => [b.bidder, b.bidder_name, b.amount])).toEqual([
      [ana.user.id, 'Ana Anić', 1010],
      [bojan.user.id, 'Bojan Bojić', 1050],
    ]);
    expect(Object.keys(res.body[0]).sort()).toEqual(['amount', 'auto', 'bidder', 'bidder_name', 'buy_now', 'created_at', 'id']);
  });

  it('answers 404 for an unknown auction or a bad id', async () => {
    const c = new ApiClient(t.url);
    expect((await c.get('/api/bids/999999/')).status).toBe(404);
    expect((await c.get('/api/bids/abc/')).status).toBe(404);
  });
});

describe('POST /api/users/', () => {
  it('answers a plain list of first names in the order asked: duplicates kept, unknown ids skipped', async () => {
    const res = await new ApiClient(t.url).post('/api/users/', { ids: [bojan.user.id, 999999, ana.user.id, bojan.user.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(['Bojan Bojić', 'Ana Anić', 'Bojan Bojić']);
  });

  it('refuses more than 500 ids and malformed lists with 400', async () => {
    const c = new ApiClient(t.url);
    const many = await c.post('/api/users/', { ids: Array.from({ length: 501 }, (_, i) => i + 1) });
    expect(many.status).toBe(400);
    expect(many.body.ids).toEqual(['Previše korisnika u jednom zahtevu.']);
    expect((await c.post('/api/users/', { ids: 'nope' })).status).toBe(400);
    expect((await c.post('/api/users/', { ids: [-1] })).status).toBe(400);
    expect((await c.post('/api/users/', {})).status).toBe(400);
  });
});

describe('rate limits (RATE_LIMIT=1)', () => {
  it('answers 429 after 30 bids in 10 s from one user, and 429 after 10 comments a minute', async () => {
    const rl = await startTestServer({ RATE_LIMIT: '1' });
    try {
      const s = await actor(rl);
      const u = await actor(rl);
      const a = await createAuction(rl.ctx, s.user.id, { starting_price: 100 });
      for (let i = 1; i <= 30; i++) expect((await bid(u.api, a.id, 100 + 10 * i)).status).toBe(201);
      const limited = await bid(u.api, a.id, 1000);
      expect(limited.status).toBe(429);
      expect(limited.body.detail).toBe('Previše pokušaja. Sačekajte malo pa pokušajte ponovo.');
      // Another user is not affected.
      expect((await bid(s.api, a.id, 2000)).status).toBe(400);
      for (let i = 0; i < 10; i++) {
        expect((await u.api.post('/api/comments/create/', { auction_item_id: a.id, content: `k${i}` })).status).toBe(201);
      }
      expect((await u.api.post('/api/comments/create/', { auction_item_id: a.id, content: 'još' })).status).toBe(429);
    } finally {
      await rl.close();
    }
  });
});
