/**
 * Issue 25 over real HTTP and real sockets (SQLite file; PostgreSQL under `node scripts/test-pg.mjs`):
 * creating with "Kupi odmah" and a reserve, what cards and the detail show (the amount to the seller alone),
 * buying now (gates, the row, the close, events in seq order, notifications once, Idempotency-Key), the
 * reserve's examples on the server, and a close below the reserve (also across a restart).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser } from '../../support/factories';
import { ApiClient } from '../../support/http';
import { actor, auctionRow, bid, eventually, notificationsOf, watchAuction, type Actor } from '../../support/marketplace';
import { collectEvents, connectSocket, sleep } from '../../support/sockets';
import { putMax } from '../../support/auto-bid-world';
import { closeAuction, closeDueAuctions } from '../../../server/features/auctions/closing';

const buyNow = (api: ApiClient, id: number, key?: string) => api.post(`/api/auctions/${id}/buy-now/`, undefined, key ? { headers: { 'idempotency-key': key } } : {});
const detail = (api: ApiClient, id: number) => api.get(`/api/auction/${id}/`);

const form = { title: 'Bicikl Kupi odmah', description: 'Gradski bicikl', current_price: '1000', city: 'Novi Sad', phone_number: '0641234567', category: 'sports' };

let t: TestServer;
let seller: Actor;
let ana: Actor;
let bojan: Actor;
let ceca: Actor;

beforeAll(async () => {
  t = await startTestServer({ SOFT_CLOSE_SECONDS: '120' });
  [seller, ana, bojan, ceca] = await Promise.all([
    actor(t, { first_name: 'Prodavac Rezerva' }),
    actor(t, { first_name: 'Ana Kupac' }),
    actor(t, { first_name: 'Bojan' }),
    actor(t, { first_name: 'Ceca' }),
  ]);
});
afterAll(async () => {
  await t.close();
});

describe('create with "Kupi odmah" and a reserve', () => {
  it('takes both (JSON and multipart), floored; empty is none', async () => {
    const json = await seller.api.post('/api/auctionItems/', { ...form, buy_now_price: '8000.7', reserve_price: 5000 });
    expect(json.status).toBe(201);
    expect(await auctionRow(t, json.body.id)).toMatchObject({ buy_now_price: 8000, reserve_price: 5000, outcome: null });
    const fd = new FormData();
    for (const [k, v] of Object.entries({ ...form, buy_now_price: '', reserve_price: '' })) fd.append(k, v);
    const multipart = await seller.api.post('/api/auctionItems/', fd);
    expect(multipart.status).toBe(201);
    expect(await auctionRow(t, multipart.body.id)).toMatchObject({ buy_now_price: null, reserve_price: null });
  });

  it('refuses each too low or a reserve above the buy-now price, under the field’s name', async () => {
    const low = await seller.api.post('/api/auctionItems/', { ...form, buy_now_price: 1009, reserve_price: '1005' });
    expect(low.status).toBe(400);
    expect(low.body).toMatchObject({
      buy_now_price: ['Cena „Kupi odmah” mora biti najmanje 10 din veća od početne cene.'],
      reserve_price: ['Rezervna cena mora biti najmanje 10 din veća od početne cene.'],
    });
    const above = await seller.api.post('/api/auctionItems/', { ...form, buy_now_price: 3000, reserve_price: 3001 });
    expect(above.status).toBe(400);
    expect(above.body).toMatchObject({ reserve_price: ['Rezervna cena ne može biti veća od cene „Kupi odmah”.'] });
    expect((await seller.api.post('/api/auctionItems/', { ...form, buy_now_price: 1010, reserve_price: 1010 })).status).toBe(201);
  });

  it('cards and the detail show buy_now_price, has_reserve, reserve_met, outcome; the amount only to the seller', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, buy_now_price: 8000, reserve_price: 5000, title: 'Prikaz opcija' });
    const plain = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, title: 'Bez opcija' });
    const visitor = new ApiClient(t.url);
    for (const api of [visitor, ana.api]) {
      const d = await detail(api, a.id);
      expect(d.body).toMatchObject({ buy_now_price: 8000, has_reserve: true, reserve_met: false, outcome: null });
      expect(d.body).not.toHaveProperty('reserve_price');
      const list = await api.get('/api/auctions/?page_size=100');
      const card = (list.body as { id: number }[]).find((c) => c.id === a.id)!;
      expect(card).toMatchObject({ buy_now_price: 8000, has_reserve: true, reserve_met: false, outcome: null });
      expect(card).not.toHaveProperty('reserve_price');
    }
    expect((await detail(ana.api, plain.id)).body).toMatchObject({ buy_now_price: null, has_reserve: false, reserve_met: null, outcome: null });
    expect((await detail(seller.api, a.id)).body).toMatchObject({ reserve_price: 5000, has_reserve: true });
    const own = await seller.api.get('/api/my-auctions/');
    expect((own.body as { id: number }[]).find((c) => c.id === a.id)).toMatchObject({ reserve_price: 5000 });
    expect((own.body as { id: number }[]).find((c) => c.id === plain.id)).toMatchObject({ reserve_price: null });
    // The first bid removes the option; the reserve is met once the price reaches it.
    expect((await bid(ana.api, a.id, 2000)).status).toBe(201);
    expect((await detail(bojan.api, a.id)).body).toMatchObject({ buy_now_price: null, reserve_met: false });
    expect((await bid(bojan.api, a.id, 5000)).status).toBe(201);
    expect((await detail(ana.api, a.id)).body).toMatchObject({ buy_now_price: null, reserve_met: true });
  });
});

describe('"Kupi odmah"', () => {
  it('ends the auction sold: one buy_now row, bid:placed then auction:closed in seq order, won and auction_ended once', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, buy_now_price: 8000, reserve_price: 5000, title: 'Kupi me' });
    const watcher = await connectSocket(t.url);
    await watchAuction(t, watcher, a.id);
    const seen: { event: string; seq: number; payload: unknown }[] = [];
    for (const event of ['bid:placed', 'auction:closed'] as const) {
      (watcher as unknown as { on(e: string, l: (p: { seq: number }) => void): void }).on(event, (p) => seen.push({ event, seq: p.seq, payload: p }));
    }
    try {
      const before = await auctionRow(t, a.id);
      const res = await buyNow(ana.api, a.id);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ auction_id: a.id, price: 8000, winner: ana.user.id });
      const row = await auctionRow(t, a.id);
      expect(row).toMatchObject({ status: 'ended', winner_id: ana.user.id, outcome: 'sold', current_price: 8000, bid_count: 1, seq: before.seq + 2 });
      // No soft-close extension: it ended now.
      expect(Date.parse(row.end_date)).toBeLessThanOrEqual(Date.now());
      const history = await ana.api.get(`/api/bids/${a.id}/`);
      expect(history.body).toEqual([expect.objectContaining({ bidder: ana.user.id, amount: 8000, auto: false, buy_now: true })]);
      await eventually(() => seen.length === 2);
      expect(seen.map((s) => [s.event, s.seq])).toEqual([
        ['bid:placed', before.seq + 1],
        ['auction:closed', before.seq + 2],
      ]);
      expect(seen[0]!.payload).toMatchObject({ bid: { buy_now: true, amount: 8000 }, current_price: 8000, bid_count: 1 });
      expect(seen[1]!.payload).toMatchObject({ status: 'ended', winner_id: ana.user.id, final_price: 8000, outcome: 'sold' });
      expect((await detail(bojan.api, a.id)).body).toMatchObject({ status: 'ended', winner: ana.user.id, outcome: 'sold', buy_now_price: null, reserve_met: true });
      // The closer's sweep later changes nothing: still one notification each.
      await closeDueAuctions(t.ctx);
      expect((await notificationsOf(t, ana.user.id, 'won')).filter((n) => n.auction_id === a.id)).toHaveLength(1);
      const ended = (await notificationsOf(t, seller.user.id, 'auction_ended')).filter((n) => n.auction_id === a.id);
      expect(ended).toHaveLength(1);
      expect(ended[0]!.message).toContain('Prodajna cena: 8.000 din.');
      expect((await notificationsOf(t, seller.user.id, 'new_bid')).filter((n) => n.auction_id === a.id)).toHaveLength(0);
      // Everything after it gets the ordinary "ended" refusal.
      expect((await bid(bojan.api, a.id, 9000)).body).toMatchObject({ code: 'auction_ended' });
      expect((await putMax(bojan.api, a.id, 9000)).body).toMatchObject({ code: 'auction_ended' });
      expect((await buyNow(bojan.api, a.id)).body).toMatchObject({ code: 'auction_ended', detail: 'Aukcija je završena.' });
    } finally {
      watcher.close();
    }
  });

  it('is for members who may bid: a visitor 403, the seller own_auction, a missing auction 404', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { buy_now_price: 8000 });
    expect((await buyNow(new ApiClient(t.url), a.id)).status).toBe(403);
    const own = await buyNow(seller.api, a.id);
    expect(own.status).toBe(400);
    expect(own.body).toMatchObject({ code: 'own_auction' });
    expect((await buyNow(ana.api, 987654)).status).toBe(404);
    expect((await auctionRow(t, a.id)).status).toBe('active');
  });

  it('is gone after the first bid (manual or automatic), and never there without a price', async () => {
    const unavailable = { code: 'buy_now_unavailable', detail: 'Opcija „Kupi odmah” više nije dostupna.' };
    const manual = await createAuction(t.ctx, seller.user.id, { buy_now_price: 8000 });
    expect((await bid(bojan.api, manual.id, 1010)).status).toBe(201);
    expect((await buyNow(ana.api, manual.id)).body).toMatchObject(unavailable);
    const automatic = await createAuction(t.ctx, seller.user.id, { buy_now_price: 8000 });
    expect((await putMax(bojan.api, automatic.id, 3000)).status).toBe(200);
    expect((await buyNow(ana.api, automatic.id)).body).toMatchObject(unavailable);
    const none = await createAuction(t.ctx, seller.user.id, {});
    const r = await buyNow(ana.api, none.id);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(unavailable);
    // A refused buy-now changes nothing: the auction goes on.
    expect(await auctionRow(t, manual.id)).toMatchObject({ status: 'active', bid_count: 1, current_price: 1010 });
  });

  it('is refused as ended once the end has passed', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { buy_now_price: 8000, endsInMs: 200 });
    await sleep(300);
    expect((await buyNow(ana.api, a.id)).body).toMatchObject({ code: 'auction_ended' });
  });

  it('honours an Idempotency-Key: the retry answers the same, once', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { buy_now_price: 4000 });
    const first = await buyNow(ceca.api, a.id, `kupi-${a.id}`);
    const again = await buyNow(ceca.api, a.id, `kupi-${a.id}`);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await notificationsOf(t, ceca.user.id, 'won')).filter((n) => n.auction_id === a.id)).toHaveLength(1);
    // The same key for another request is refused.
    const other = await createAuction(t.ctx, seller.user.id, { buy_now_price: 4000 });
    expect((await buyNow(ceca.api, other.id, `kupi-${a.id}`)).status).toBe(422);
  });
});

describe('the reserve on the server (start 1,000, reserve 5,000)', () => {
  const history = async (id: number) => ((await ana.api.get(`/api/bids/${id}/`)).body as { bidder: number; amount: number; auto: boolean }[]).map((b) => [b.bidder, b.amount, b.auto]);

  it('A max 8,000 → A 5,000 (met); B max 6,000 → B 6,000, A 6,010', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, reserve_price: 5000 });
    expect((await putMax(ana.api, a.id, 8000)).body).toMatchObject({ current_price: 5000, leading: true });
    expect((await detail(bojan.api, a.id)).body).toMatchObject({ reserve_met: true, current_price: 5000 });
    expect((await putMax(bojan.api, a.id, 6000)).body).toMatchObject({ current_price: 6010, leading: false });
    expect(await history(a.id)).toEqual([
      [ana.user.id, 5000, true],
      [bojan.user.id, 6000, true],
      [ana.user.id, 6010, true],
    ]);
  });

  it('A max 3,000 → A 1,010; B bids 4,000; C max 5,000 → C 5,000 (not 4,010)', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, reserve_price: 5000 });
    await putMax(ana.api, a.id, 3000);
    expect((await detail(bojan.api, a.id)).body).toMatchObject({ reserve_met: false, current_price: 1010 });
    expect((await bid(bojan.api, a.id, 4000)).body).toMatchObject({ current_price: 4000, leading: true });
    expect((await putMax(ceca.api, a.id, 5000)).body).toMatchObject({ current_price: 5000, leading: true });
    expect(await history(a.id)).toEqual([
      [ana.user.id, 1010, true],
      [bojan.user.id, 4000, false],
      [ceca.user.id, 5000, true],
    ]);
  });

  it('A max 3,000 → A 1,010; A raises to 8,000 → A 5,000 with its own seq, bid:placed and soft-close extension', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, reserve_price: 5000, endsInMs: 60_000 });
    await putMax(ana.api, a.id, 3000);
    const watcher = await connectSocket(t.url);
    await watchAuction(t, watcher, a.id);
    const placed = collectEvents(watcher, 'bid:placed');
    try {
      const before = await auctionRow(t, a.id);
      expect((await putMax(ana.api, a.id, 8000)).body).toMatchObject({ max_amount: 8000, current_price: 5000, bid_count: 2, leading: true });
      const after = await auctionRow(t, a.id);
      expect(after.seq).toBe(before.seq + 1);
      expect(Date.parse(after.end_date)).toBeGreaterThan(Date.parse(before.end_date));
      await eventually(() => placed.length === 1);
      expect(placed[0]).toMatchObject({ seq: after.seq, bid: { bidder: ana.user.id, amount: 5000, auto: true }, current_price: 5000 });
      expect(await history(a.id)).toEqual([
        [ana.user.id, 1010, true],
        [ana.user.id, 5000, true],
      ]);
      // Raising again writes nothing.
      expect((await putMax(ana.api, a.id, 9000)).body).toMatchObject({ current_price: 5000, bid_count: 2 });
    } finally {
      watcher.close();
    }
  });

  it('manual bids as typed: B 2,000 not met; C 5,000 met', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, reserve_price: 5000 });
    await bid(bojan.api, a.id, 2000);
    expect((await detail(ana.api, a.id)).body).toMatchObject({ reserve_met: false, current_price: 2000 });
    await bid(ceca.api, a.id, 5000);
    expect((await detail(ana.api, a.id)).body).toMatchObject({ reserve_met: true, current_price: 5000 });
  });

  it('a close below the reserve is no sale: winner null, outcome reserve_not_met, both told', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, reserve_price: 5000, title: 'Ispod rezerve' });
    await bid(bojan.api, a.id, 2000);
    await bid(ceca.api, a.id, 4000);
    const watcher = await connectSocket(t.url);
    await watchAuction(t, watcher, a.id);
    const closed = collectEvents(watcher, 'auction:closed');
    try {
      await t.ctx.db.updateTable('auctions').set({ end_date: new Date(Date.now() - 1000).toISOString() }).where('id', '=', a.id).execute();
      await closeAuction(t.ctx, a.id);
      expect(await auctionRow(t, a.id)).toMatchObject({ status: 'ended', winner_id: null, outcome: 'reserve_not_met', current_price: 4000 });
      await eventually(() => closed.length === 1);
      expect(closed[0]).toMatchObject({ winner_id: null, final_price: 4000, outcome: 'reserve_not_met' });
      expect(JSON.stringify(closed[0])).not.toContain('5000');
      expect((await detail(ana.api, a.id)).body).toMatchObject({ status: 'ended', winner: null, outcome: 'reserve_not_met', reserve_met: false });
      const toSeller = (await notificationsOf(t, seller.user.id, 'auction_ended')).filter((n) => n.auction_id === a.id);
      expect(toSeller.map((n) => n.message)).toEqual([
        `Vaša aukcija <a href="/aukcija/${a.id}">Ispod rezerve</a> je završena bez prodaje: rezervna cena od 5.000 din nije dostignuta. Najviša ponuda: 4.000 din.`,
      ]);
      const toBidder = (await notificationsOf(t, ceca.user.id, 'reserve_not_met')).filter((n) => n.auction_id === a.id);
      expect(toBidder.map((n) => n.message)).toEqual([`Aukcija <a href="/aukcija/${a.id}">Ispod rezerve</a> je završena, ali rezervna cena nije dostignuta, pa predmet nije prodat.`]);
      expect((await notificationsOf(t, ceca.user.id, 'won')).filter((n) => n.auction_id === a.id)).toHaveLength(0);
      expect((await notificationsOf(t, bojan.user.id, 'reserve_not_met')).filter((n) => n.auction_id === a.id)).toHaveLength(0);
      // REST notifications of the highest bidder: the new kind's text, no amount.
      const list = await ceca.api.get('/api/notifications/');
      const mine = (list.body as { message: string; auction_id: number | null }[]).find((n) => n.auction_id === a.id && n.message.includes('rezervna cena nije dostignuta'));
      expect(mine?.message).not.toContain('5.000');
    } finally {
      watcher.close();
    }
  });

  it('a close at or above the reserve sells; without bids it is unsold', async () => {
    const met = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, reserve_price: 5000 });
    await bid(bojan.api, met.id, 5000);
    const none = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, reserve_price: 5000 });
    await t.ctx.db.updateTable('auctions').set({ end_date: new Date(Date.now() - 1000).toISOString() }).where('id', 'in', [met.id, none.id]).execute();
    await closeAuction(t.ctx, met.id);
    await closeAuction(t.ctx, none.id);
    expect(await auctionRow(t, met.id)).toMatchObject({ outcome: 'sold', winner_id: bojan.user.id });
    expect(await auctionRow(t, none.id)).toMatchObject({ outcome: 'unsold', winner_id: null });
  });
});

describe('a close below the reserve across a restart', () => {
  it('ends while the server is down; the next start closes it reserve_not_met, told once', async () => {
    const env = { SOFT_CLOSE_SECONDS: '0' };
    const a1 = await startTestServer(env);
    const dataDir = a1.dataDir;
    let auctionId = 0;
    let sellerId = 0;
    let bidderId = 0;
    try {
      const s = await createUser(a1.ctx, { first_name: 'Prodavac Restart Rezerva' });
      sellerId = s.id;
      const b = await actor(a1, { first_name: 'Licitant Restart' });
      bidderId = b.user.id;
      const a = await createAuction(a1.ctx, s.id, { starting_price: 1000, reserve_price: 5000, endsInMs: 1500 });
      auctionId = a.id;
      expect((await bid(b.api, a.id, 3000)).status).toBe(201);
    } finally {
      await a1.close();
    }
    await sleep(1800);
    const b = await startTestServer(env, { dataDir });
    try {
      await eventually(async () => (await auctionRow(b, auctionId)).status === 'ended', 3000);
      expect(await auctionRow(b, auctionId)).toMatchObject({ status: 'ended', winner_id: null, outcome: 'reserve_not_met', current_price: 3000 });
    } finally {
      await b.close();
    }
    const c = await startTestServer(env, { dataDir });
    try {
      await sleep(300);
      expect(await closeDueAuctions(c.ctx)).toBe(0);
      expect((await notificationsOf(c, bidderId, 'reserve_not_met')).filter((n) => n.auction_id === auctionId)).toHaveLength(1);
      expect((await notificationsOf(c, sellerId, 'auction_ended')).filter((n) => n.auction_id === auctionId)).toHaveLength(1);
      expect((await notificationsOf(c, bidderId, 'won')).filter((n) => n.auction_id === auctionId)).toHaveLength(0);
    } finally {
      await c.close();
    }
  });
});
