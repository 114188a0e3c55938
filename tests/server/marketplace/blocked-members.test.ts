/**
 * Issue 24, the member block list ("crna lista") over real HTTP (SQLite file; PostgreSQL under
 * `node scripts/test-pg.mjs`): the list's routes, and what a member the seller blocked can no longer do on that
 * seller's open auctions (bid, set or raise a maximum, buy now, comment), what stays (bids made, a win,
 * watching, other sellers' auctions), the maximum spent at the block, and the detail's `viewer_blocked`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { actor, auctionRow, bid, type Actor } from '../../support/marketplace';
import { ownMax, putMax } from '../../support/auto-bid-world';
import { closeAuction } from '../../../server/features/auctions/closing';
import { describeSqliteOnly } from '../../support/pg';
import { LOCKED_AUCTION_READ, recordStatementsOf } from '../../support/statements';

const SENTENCE = 'Prodavac vam je onemogućio učešće na svojim aukcijama.';
const block = (who: Actor, userId: unknown) => who.api.post('/api/blocked-members/', { user_id: userId });
const unblock = (who: Actor, userId: number) => who.api.delete(`/api/blocked-members/${userId}/`);
const detail = (api: ApiClient, id: number) => api.get(`/api/auction/${id}/`);
const comment = (api: ApiClient, id: number, content: string) => api.post('/api/comments/create/', { auction_item_id: id, content });

let t: TestServer;
let other: Actor;
let ana: Actor;
let bojan: Actor;

beforeAll(async () => {
  t = await startTestServer();
  [other, ana, bojan] = await Promise.all([
    actor(t, { first_name: 'Drugi' }),
    actor(t, { first_name: 'Ana' }),
    actor(t, { first_name: 'Bojan' }),
  ]);
});
afterAll(async () => {
  await t?.close();
});

describe('the block list', () => {
  it('needs a login', async () => {
    const visitor = new ApiClient(t.url);
    expect((await visitor.get('/api/blocked-members/')).status).toBe(403);
  });

  it('blocks (201), again (200, the same row), lists newest first, unblocks (204)', async () => {
    const me = await actor(t, { first_name: 'Lista' });
    const first = await block(me, ana.user.id);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: ana.user.id, first_name: 'Ana', blocked_at: expect.any(String) });
    const again = await block(me, String(ana.user.id));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    await new Promise((r) => setTimeout(r, 5));
    expect((await block(me, bojan.user.id)).status).toBe(201);

    const list = await me.api.get('/api/blocked-members/');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 2, next: null, previous: null });
    expect(list.body.results.map((r: { first_name: string }) => r.first_name)).toEqual(['Bojan', 'Ana']);
    const paged = await me.api.get('/api/blocked-members/?page=2&page_size=1');
    expect(paged.body).toMatchObject({ count: 2, next: null, previous: 1, results: [{ id: ana.user.id, first_name: 'Ana' }] });
    // Another member's list is their own.
    expect((await other.api.get('/api/blocked-members/')).body).toMatchObject({ count: 0, results: [] });

    expect((await unblock(me, ana.user.id)).status).toBe(204);
    expect((await unblock(me, ana.user.id)).status).toBe(204);
    expect((await me.api.get('/api/blocked-members/')).body).toMatchObject({ count: 1, results: [{ id: bojan.user.id }] });
  });

  it('refuses oneself, an unknown or a malformed id (400 under user_id), and a bad page', async () => {
    const me = await actor(t);
    const self = await block(me, me.user.id);
    expect(self.status).toBe(400);
    expect(self.body.user_id).toEqual(['Ne možete blokirati sebe.']);
    const unknown = await block(me, 987654321);
    expect(unknown.status).toBe(400);
    expect(unknown.body.user_id).toEqual(['Član ne postoji.']);
    for (const bad of [0, -1, 'x', null, 1.5]) expect((await block(me, bad)).status).toBe(400);
    expect((await unblock(me, me.user.id)).status).toBe(400);
    expect((await unblock(me, 987654321)).status).toBe(400);
    expect((await me.api.get('/api/blocked-members/?page=0')).status).toBe(400);
  });

  it('holds at most 500 members', async () => {
    const me = await actor(t);
    const now = new Date().toISOString();
    const base = { phone_number: '0641234567', city: 'Beograd', password_hash: 'x', google_sub: null, verified_at: now, is_admin: 0, blocked_at: null, created_at: now };
    const rows = Array.from({ length: 500 }, (_, i) => ({ ...base, first_name: `Blokiran ${i}`, email: `blok-${i}-${Date.now()}@example.com` }));
    const all = (await t.ctx.db.insertInto('users').values(rows).returning('id').execute()).map((r) => r.id);
    await t.ctx.db.insertInto('member_blocks').values(all.map((id) => ({ blocker_id: me.user.id, blocked_id: id, created_at: now }))).execute();
    expect((await me.api.get('/api/blocked-members/?page=5')).body).toMatchObject({ count: 500, next: 6, previous: 4 });
    const next = await actor(t);
    const refused = await block(me, next.user.id);
    expect(refused.status).toBe(400);
    expect(refused.body.user_id).toEqual(['Možete blokirati najviše 500 članova.']);
    // Blocking one already on the list still answers it.
    expect((await block(me, all[0])).status).toBe(200);
    expect((await unblock(me, all[0]!)).status).toBe(204);
    // 499 on the list: of two blocks at once exactly one gets the last place.
    const [x, y] = await Promise.all([actor(t), actor(t)]);
    const both = await Promise.all([block(me, x.user.id), block(me, y.user.id)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 400]);
    expect((await me.api.get('/api/blocked-members/')).body.count).toBe(500);
  });
});

describe("a blocked member on the seller's auctions", () => {
  it('cannot bid: 400 blocked_by_seller under amount, nothing written; other sellers are unaffected', async () => {
    const s = await actor(t, { first_name: 'Prodavac B' });
    const a = await createAuction(t.ctx, s.user.id, { starting_price: 1000 });
    const elsewhere = await createAuction(t.ctx, other.user.id, { starting_price: 1000 });
    expect((await block(s, ana.user.id)).status).toBe(201);
    const res = await bid(ana.api, a.id, 1500);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'blocked_by_seller', detail: SENTENCE, amount: [SENTENCE] });
    // With an Idempotency-Key (the long way, under the lock) too.
    const keyed = await ana.api.post('/api/bids/', { auction_item_id: a.id, amount: 1600 }, { headers: { 'idempotency-key': 'blk-1' } });
    expect(keyed.status).toBe(400);
    expect(keyed.body.code).toBe('blocked_by_seller');
    expect(await auctionRow(t, a.id)).toMatchObject({ current_price: 1000, bid_count: 0 });
    expect((await bid(ana.api, elsewhere.id, 1500)).status).toBe(201);
    expect((await bid(bojan.api, a.id, 1500)).status).toBe(201);
    // Unblocked, they may bid again.
    expect((await unblock(s, ana.user.id)).status).toBe(204);
    expect((await bid(ana.api, a.id, 1600)).status).toBe(201);
  });

  it('cannot set or raise a maximum (max_amount) nor buy now; may still watch', async () => {
    const s = await actor(t, { first_name: 'Prodavac M' });
    const a = await createAuction(t.ctx, s.user.id, { starting_price: 1000, buy_now_price: 9000 });
    await block(s, bojan.user.id);
    const max = await putMax(bojan.api, a.id, 3000);
    expect(max.status).toBe(400);
    expect(max.body).toMatchObject({ code: 'blocked_by_seller', max_amount: [SENTENCE] });
    const buy = await bojan.api.post(`/api/auctions/${a.id}/buy-now/`);
    expect(buy.status).toBe(400);
    expect(buy.body).toMatchObject({ code: 'blocked_by_seller', detail: SENTENCE });
    const keyedBuy = await bojan.api.post(`/api/auctions/${a.id}/buy-now/`, undefined, { headers: { 'idempotency-key': 'blk-buy' } });
    expect(keyedBuy.body.code).toBe('blocked_by_seller');
    expect(await auctionRow(t, a.id)).toMatchObject({ status: 'active', bid_count: 0 });
    expect((await bojan.api.post('/api/watchlist/', { auction_item_id: a.id })).status).toBe(201);
    // The seller's own refusal comes first: a seller is never "blocked" on their own auction.
    expect((await s.api.post(`/api/auctions/${a.id}/buy-now/`)).body.code).toBe('own_auction');
  });

  it('cannot raise the maximum they held: it was spent at the block (GET answers null, no automatic bid)', async () => {
    const s = await actor(t, { first_name: 'Prodavac R' });
    const a = await createAuction(t.ctx, s.user.id, { starting_price: 1000 });
    const closedOne = await createAuction(t.ctx, s.user.id, { starting_price: 1000 });
    expect((await putMax(ana.api, a.id, 5000)).status).toBe(200);
    expect((await putMax(ana.api, closedOne.id, 5000)).status).toBe(200);
    await t.ctx.db.updateTable('auctions').set({ status: 'ended' }).where('id', '=', closedOne.id).execute();
    expect(await auctionRow(t, a.id)).toMatchObject({ current_price: 1010, bid_count: 1 });
    expect(await ownMax(ana.api, a.id)).toBe(5000);

    await block(s, ana.user.id);
    expect(await ownMax(ana.api, a.id)).toBeNull();
    const raise = await putMax(ana.api, a.id, 8000);
    expect(raise.status).toBe(400);
    expect(raise.body.code).toBe('blocked_by_seller');
    // Bojan outbids her: no automatic answer of her spent maximum (it would have answered 1510).
    const res = await bid(bojan.api, a.id, 1500);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ leading: true });
    expect(await auctionRow(t, a.id)).toMatchObject({ current_price: 1500, bid_count: 2 });
    // Only open auctions are touched: the ended one's maximum row is as it was.
    const row = await t.ctx.db.selectFrom('auto_bids').select('active').where('auction_id', '=', closedOne.id).executeTakeFirstOrThrow();
    expect(Number(row.active)).toBe(1);
  });

  it('keeps the bids made, and a leading blocked member still wins', async () => {
    const s = await actor(t, { first_name: 'Prodavac W' });
    const a = await createAuction(t.ctx, s.user.id, { starting_price: 1000 });
    expect((await bid(bojan.api, a.id, 1200)).status).toBe(201);
    await block(s, bojan.user.id);
    const history = (await s.api.get(`/api/bids/${a.id}/`)).body as { bidder: number; amount: number }[];
    expect(history).toHaveLength(1);
    await t.ctx.db.updateTable('auctions').set({ end_date: new Date(Date.now() - 1000).toISOString() }).where('id', '=', a.id).execute();
    await closeAuction(t.ctx, a.id);
    expect(await auctionRow(t, a.id)).toMatchObject({ status: 'ended', winner_id: bojan.user.id, outcome: 'sold', current_price: 1200 });
  });

  it('cannot comment on an open auction of the seller (400 under detail); other members can', async () => {
    const s = await actor(t, { first_name: 'Prodavac K' });
    const a = await createAuction(t.ctx, s.user.id);
    await block(s, ana.user.id);
    const res = await comment(ana.api, a.id, 'Da li je ispravno?');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'blocked_by_seller', detail: SENTENCE });
    expect((await ana.api.get(`/api/comments/${a.id}/`)).body).toEqual([]);
    expect((await comment(bojan.api, a.id, 'Ima li garanciju?')).status).toBe(201);
    await unblock(s, ana.user.id);
    expect((await comment(ana.api, a.id, 'Sada mogu.')).status).toBe(201);
  });

  it('the detail says viewer_blocked to the blocked member only (false for others and for visitors)', async () => {
    const s = await actor(t, { first_name: 'Prodavac D' });
    const a = await createAuction(t.ctx, s.user.id);
    await block(s, ana.user.id);
    expect((await detail(ana.api, a.id)).body.viewer_blocked).toBe(true);
    expect((await detail(bojan.api, a.id)).body.viewer_blocked).toBe(false);
    expect((await detail(s.api, a.id)).body.viewer_blocked).toBe(false);
    expect((await detail(new ApiClient(t.url), a.id)).body.viewer_blocked).toBe(false);
    await unblock(s, ana.user.id);
    expect((await detail(ana.api, a.id)).body.viewer_blocked).toBe(false);
  });

  it("the member's profile and the seller's sales say blocked_by_viewer to the one who blocked (false for others, visitors, oneself)", async () => {
    const s = await actor(t, { first_name: 'Prodavac P' });
    const a = await createAuction(t.ctx, s.user.id, { starting_price: 1000 });
    await bid(bojan.api, a.id, 1100);
    await t.ctx.db.updateTable('auctions').set({ end_date: new Date(Date.now() - 1000).toISOString() }).where('id', '=', a.id).execute();
    await closeAuction(t.ctx, a.id);
    const profile = (api: ApiClient) => api.get(`/api/members/${bojan.user.id}/`);
    const counterpart = async () => ((await s.api.get('/api/sales/')).body.results as { auction_id: number; counterpart: { blocked_by_viewer: boolean } }[]).find((x) => x.auction_id === a.id)!.counterpart;
    expect((await profile(s.api)).body.blocked_by_viewer).toBe(false);
    expect((await counterpart()).blocked_by_viewer).toBe(false);
    await block(s, bojan.user.id);
    expect((await profile(s.api)).body.blocked_by_viewer).toBe(true);
    expect((await counterpart()).blocked_by_viewer).toBe(true);
    expect((await profile(ana.api)).body.blocked_by_viewer).toBe(false);
    expect((await profile(new ApiClient(t.url))).body.blocked_by_viewer).toBe(false);
    expect((await profile(bojan.api)).body.blocked_by_viewer).toBe(false);
    // The blocked member's own view of the sale does not say who blocked whom.
    const theirs = ((await bojan.api.get('/api/sales/')).body.results as { auction_id: number; counterpart: { blocked_by_viewer: boolean } }[]).find((x) => x.auction_id === a.id)!;
    expect(theirs.counterpart.blocked_by_viewer).toBe(false);
    await unblock(s, bojan.user.id);
    expect((await profile(s.api)).body.blocked_by_viewer).toBe(false);
    expect((await counterpart()).blocked_by_viewer).toBe(false);
  });

  it('never touches ratings', async () => {
    const s = await actor(t, { first_name: 'Prodavac O' });
    const a = await createAuction(t.ctx, s.user.id, { starting_price: 1000 });
    await bid(bojan.api, a.id, 1100);
    await t.ctx.db.updateTable('auctions').set({ end_date: new Date(Date.now() - 1000).toISOString() }).where('id', '=', a.id).execute();
    await closeAuction(t.ctx, a.id);
    await block(s, bojan.user.id);
    expect((await bojan.api.post(`/api/sales/${a.id}/rating/`, { value: 'positive', comment: 'Sve u redu' })).status).toBe(201);
    expect((await s.api.post(`/api/sales/${a.id}/rating/`, { value: 'positive' })).status).toBe(201);
  });
});

describeSqliteOnly("EXPLAIN QUERY PLAN is SQLite's", 'the cost on the bid path', () => {
  it("adds no statement: the locked read carries the block, looked up by member_blocks' primary key", async () => {
    const s = await actor(t, { first_name: 'Prodavac P' });
    const a = await createAuction(t.ctx, s.user.id, { starting_price: 1000 });
    const log = recordStatementsOf(t.ctx);
    try {
      expect((await bid(bojan.api, a.id, 1100)).status).toBe(201);
      const locked = log.sources.filter((q) => LOCKED_AUCTION_READ.test(q));
      expect(locked).toHaveLength(1);
      expect(log.sources.filter((q) => /member_blocks/.test(q))).toHaveLength(2); // the quick check and the locked read
      const plan = t.ctx.sqlite!.prepare(`explain query plan ${locked[0]}`).all(bojan.user.id, a.id) as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' | ')).toMatch(/SEARCH mb USING (COVERING INDEX sqlite_autoindex_member_blocks_1|PRIMARY KEY) \(blocker_id=\? AND blocked_id=\?\)/);
    } finally {
      log.stop();
    }
  });
});
