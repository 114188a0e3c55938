/**
 * Issue 14, automatic bidding, over real HTTP and real sockets: PUT/GET /api/auctions/{id}/auto-bid/ and
 * POST /api/bids/ against a maximum (docs/bidding.md). The two worked examples row by row, the
 * notifications (a beaten maximum told once, a manual bid answered at once gets the outbid text), one
 * `bid:placed` per row in seq order, privacy of a maximum, raising, refusals and soft close.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AutoBidRefusalResponse } from '@shared/schemas/autobid';
import { BidRefusalResponse } from '@shared/schemas/bids';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { loginAs, userRowsWritten } from '../../support/factories';
import { ApiClient } from '../../support/http';
import { actor, auctionRow, bid, eventually, notificationsOf, type Actor } from '../../support/marketplace';
import { collectEvents, emitWithAck, sleep, socketTracker, type TestSocket } from '../../support/sockets';

let t: TestServer;
const sockets = socketTracker();
let seller: Actor;

beforeAll(async () => {
  t = await startTestServer({ SOFT_CLOSE_SECONDS: '120' });
  seller = await actor(t, { first_name: 'Sanja Prodavac' });
});
afterEach(sockets.closeAll);
afterAll(async () => {
  await t.close();
});

function setMax(who: ApiClient, auctionId: number, max: unknown) {
  return who.put(`/api/auctions/${auctionId}/auto-bid/`, { max_amount: max });
}
async function maxOf(who: ApiClient, auctionId: number) {
  const res = await who.get(`/api/auctions/${auctionId}/auto-bid/`);
  expect(res.status).toBe(200);
  return (res.body as { max_amount: number | null }).max_amount;
}
/** The public history as [bidder, amount, auto] rows, oldest first. */
async function history(auctionId: number) {
  const res = await new ApiClient(t.url).get(`/api/bids/${auctionId}/`);
  expect(res.status).toBe(200);
  return res.body.map((b) => [b.bidder, b.amount, b.auto]);
}
async function watcher(auctionId: number): Promise<TestSocket> {
  const s = await sockets.connect(t.url);
  const r = await emitWithAck(s, 'auction:join', { auction_id: auctionId });
  if (!r.ok) throw new Error(r.detail);
  return s;
}

type Res = { status: number; body: unknown; text: string };
function expectBidRefusal(res: Res, code: string, price: number, message: string) {
  expect(res.status).toBe(400);
  const body = BidRefusalResponse.strict().parse(res.body);
  expect(body).toEqual({ amount: [message], detail: message, message, code, current_price: price, min_amount: price + 10 });
}
function expectMaxRefusal(res: Res, code: string, price: number, message: string) {
  expect(res.status).toBe(400);
  const body = AutoBidRefusalResponse.strict().parse(res.body);
  expect(body).toEqual({ max_amount: [message], detail: message, message, code, current_price: price, min_amount: price + 10 });
}
const minBid = (n: number) => `Minimalna ponuda je ${n} din`;
const OUTBID = /^Vaša ponuda na aukciji <a href="\/aukcija\/\d+">.*<\/a> je nadmašena\.\nNova cena: /;
const beatenText = (auctionId: number, title: string, max: string) =>
  `Vaša automatska ponuda od ${max} din je nadmašena na aukciji <a href="/aukcija/${auctionId}">${title}</a>.`;

describe('PUT /api/auctions/{id}/auto-bid/: who may set a maximum', () => {
  it('answers 403 to a visitor, an unverified and a blocked user, 404 for an unknown auction', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500 });
    expect((await setMax(new ApiClient(t.url), a.id, 1000)).status).toBe(403);
    const unverified = await actor(t);
    await t.ctx.db.updateTable('users').set({ verified_at: null }).where('id', '=', unverified.user.id).execute();
    await userRowsWritten(t.ctx);
    const res = await setMax(unverified.api, a.id, 1000);
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('Vaš nalog nije verifikovan. Proverite vaš email.');
    const blocked = await actor(t);
    await t.ctx.db.updateTable('users').set({ blocked_at: new Date().toISOString() }).where('id', '=', blocked.user.id).execute();
    await userRowsWritten(t.ctx);
    expect((await setMax(blocked.api, a.id, 1000)).status).toBe(403);
    const ok = await actor(t);
    expect((await setMax(ok.api, 999999, 1000)).status).toBe(404);
    expect(await auctionRow(t, a.id)).toMatchObject({ current_price: 500, bid_count: 0 });
  });

  it('refuses the seller, an ended auction, a maximum below price + 10 and a bad amount, in the bid refusal shape', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500 });
    expectMaxRefusal(await setMax(seller.api, a.id, 1000), 'own_auction', 500, 'Ne možete licitirati na sopstvenoj aukciji.');
    const u = await actor(t);
    expectMaxRefusal(await setMax(u.api, a.id, 509), 'bid_too_low', 500, minBid(510));
    const bad = await setMax(u.api, a.id, '12.5');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid', max_amount: ['Ponuda mora biti ceo broj dinara.'] });
    const ended = await createAuction(t.ctx, seller.user.id, { starting_price: 500, endsInMs: -1000 });
    expectMaxRefusal(await setMax(u.api, ended.id, 1000), 'auction_ended', 500, 'Aukcija je završena.');
    expect(await auctionRow(t, a.id)).toMatchObject({ current_price: 500, bid_count: 0 });
    expect(await maxOf(u.api, a.id)).toBeNull();
  });
});

describe('rate limit (RATE_LIMIT=1)', () => {
  it('a maximum counts against the bids’ limit of 30 per 10 s per user', async () => {
    const rl = await startTestServer({ RATE_LIMIT: '1' });
    try {
      const s = await actor(rl);
      const u = await actor(rl);
      const a = await createAuction(rl.ctx, s.user.id, { starting_price: 100 });
      for (let i = 1; i <= 29; i++) expect((await bid(u.api, a.id, 100 + 10 * i)).status).toBe(201);
      expect((await setMax(u.api, a.id, 5000)).status).toBe(200);
      const limited = await setMax(u.api, a.id, 6000);
      expect(limited.status).toBe(429);
      expect(limited.body.detail).toBe('Previše pokušaja. Sačekajte malo pa pokušajte ponovo.');
      expect((await bid(u.api, a.id, 9000)).status).toBe(429);
    } finally {
      await rl.close();
    }
  });
});

describe('the worked examples of the issue, through the API', () => {
  it('start 500: A max 1,000 → A 510; B max 800 → B 800, A 810; B max 1,000 → B 990, A 1,000; C 1,005 refused; C 1,010 leads', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500, title: 'Gitara' });
    const [A, B, C] = await Promise.all([actor(t, { first_name: 'Ana' }), actor(t, { first_name: 'Bojan' }), actor(t, { first_name: 'Ceca' })]);

    expect((await setMax(A.api, a.id, 1000)).body).toEqual({ max_amount: 1000, current_price: 510, bid_count: 1, leading: true });
    expect(await history(a.id)).toEqual([[A.user.id, 510, true]]);

    expect((await setMax(B.api, a.id, 800)).body).toEqual({ max_amount: 800, current_price: 810, bid_count: 3, leading: false });
    expect(await maxOf(B.api, a.id)).toBeNull();

    expect((await setMax(B.api, a.id, 1000)).body).toEqual({ max_amount: 1000, current_price: 1000, bid_count: 5, leading: false });

    expectBidRefusal(await bid(C.api, a.id, 1005), 'bid_too_low', 1000, minBid(1010));
    const won = await bid(C.api, a.id, 1010);
    expect(won.status).toBe(201);
    expect(won.body).toMatchObject({ bidder: C.user.id, amount: 1010, auto: false, current_price: 1010, bid_count: 6, leading: true });

    expect(await history(a.id)).toEqual([
      [A.user.id, 510, true],
      [B.user.id, 800, true],
      [A.user.id, 810, true],
      [B.user.id, 990, true],
      [A.user.id, 1000, true],
      [C.user.id, 1010, false],
    ]);
    expect(await maxOf(A.api, a.id)).toBeNull();
    expect(await auctionRow(t, a.id)).toMatchObject({ current_price: 1010, bid_count: 6 });

    // Each beaten maximum told once, not per automatic step; C's refusal told nobody.
    const bNotes = await notificationsOf(t, B.user.id, 'outbid');
    expect(bNotes.map((n) => n.message)).toEqual([beatenText(a.id, 'Gitara', '800'), beatenText(a.id, 'Gitara', '1.000')]);
    expect((await notificationsOf(t, A.user.id)).map((n) => n.message)).toEqual([beatenText(a.id, 'Gitara', '1.000')]);
    expect(await notificationsOf(t, C.user.id)).toEqual([]);
  });

  it('start 500: A max 700 → A 510; E 600 → E 600, A 610; E 700 → A 700 and E refused (min 710); E 710 leads', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500, title: 'Lampa' });
    const [A, E] = await Promise.all([actor(t, { first_name: 'Ana' }), actor(t, { first_name: 'Ema' })]);
    expect((await setMax(A.api, a.id, 700)).body).toMatchObject({ current_price: 510, leading: true });

    const answered = await bid(E.api, a.id, 600);
    expect(answered.status).toBe(201);
    expect(answered.body).toMatchObject({ bidder: E.user.id, amount: 600, auto: false, current_price: 610, bid_count: 3, leading: false });
    const eNotes = await notificationsOf(t, E.user.id);
    expect(eNotes).toHaveLength(1);
    expect(eNotes[0]!.kind).toBe('outbid');
    expect(eNotes[0]!.message).toMatch(OUTBID);
    expect(eNotes[0]!.message).toContain('Nova cena: 610 din.');

    expectBidRefusal(await bid(E.api, a.id, 700), 'bid_too_low', 700, minBid(710));
    expect(await history(a.id)).toEqual([
      [A.user.id, 510, true],
      [E.user.id, 600, false],
      [A.user.id, 610, true],
      [A.user.id, 700, true],
    ]);
    expect(await notificationsOf(t, E.user.id)).toHaveLength(1);

    const leads = await bid(E.api, a.id, 710);
    expect(leads.body).toMatchObject({ amount: 710, current_price: 710, bid_count: 5, leading: true });
    expect((await notificationsOf(t, A.user.id)).map((n) => n.message)).toEqual([beatenText(a.id, 'Lampa', '700')]);
    expect(await maxOf(A.api, a.id)).toBeNull();
  });
});

describe('live: one bid:placed per row, in seq order', () => {
  it('a watcher sees every row of a request with its own seq, price and count; owners are told once, live', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500, title: 'Sat' });
    const [A, B] = await Promise.all([actor(t, { first_name: 'Ana' }), actor(t, { first_name: 'Bojan' })]);
    const w = await watcher(a.id);
    const placed = collectEvents(w, 'bid:placed');
    const bSock = await sockets.connect(t.url, { cookie: B.api.cookieHeader });
    const bNotes = collectEvents(bSock, 'notification:created');
    const sellerSock = await sockets.connect(t.url, { cookie: seller.api.cookieHeader });
    const sellerCreated = collectEvents(sellerSock, 'notification:created');
    const sellerUpdated = collectEvents(sellerSock, 'notification:updated');
    const seq0 = (await auctionRow(t, a.id)).seq;

    await setMax(A.api, a.id, 1000);
    await setMax(B.api, a.id, 800);
    await setMax(B.api, a.id, 1000);
    await eventually(() => placed.length >= 5);
    expect(placed.map((p) => [p.seq, p.bid.bidder, p.bid.amount, p.bid.auto, p.current_price, p.bid_count])).toEqual([
      [seq0 + 1, A.user.id, 510, true, 510, 1],
      [seq0 + 2, B.user.id, 800, true, 800, 2],
      [seq0 + 3, A.user.id, 810, true, 810, 3],
      [seq0 + 4, B.user.id, 990, true, 990, 4],
      [seq0 + 5, A.user.id, 1000, true, 1000, 5],
    ]);
    await eventually(() => bNotes.length >= 2);
    await sleep(100);
    expect(bNotes.map((n) => n.notification.message)).toEqual([beatenText(a.id, 'Sat', '800'), beatenText(a.id, 'Sat', '1.000')]);
    // The seller: one notification (created, then rewritten by the coalescing) per request, not per row. Only
    // this auction's: the seller's other auctions of this file end meanwhile and notify it too.
    const ofThis = (events: typeof sellerCreated) => events.filter((e) => e.notification.auction_id === a.id).length;
    expect([ofThis(sellerCreated), ofThis(sellerUpdated)]).toEqual([1, 2]);
  });
});

describe('privacy of a maximum', () => {
  it('only its owner sees it: another user’s GET answers null, the detail, history and events never carry it', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500 });
    const [A, B] = await Promise.all([actor(t), actor(t)]);
    const w = await watcher(a.id);
    const seen: unknown[] = [];
    w.onAny((_event: string, payload: unknown) => seen.push(payload));
    const bSock = await sockets.connect(t.url, { cookie: B.api.cookieHeader });
    bSock.onAny((_event: string, payload: unknown) => seen.push(payload));
    const sellerSock = await sockets.connect(t.url, { cookie: seller.api.cookieHeader });
    sellerSock.onAny((_event: string, payload: unknown) => seen.push(payload));

    expect((await setMax(A.api, a.id, 98_760)).body).toMatchObject({ max_amount: 98_760, current_price: 510 });
    expect(await maxOf(A.api, a.id)).toBe(98_760);
    expect(await maxOf(B.api, a.id)).toBeNull();
    expect(await maxOf(seller.api, a.id)).toBeNull();
    expect((await new ApiClient(t.url).get(`/api/auctions/${a.id}/auto-bid/`)).status).toBe(403);

    expect((await bid(B.api, a.id, 700)).body).toMatchObject({ current_price: 710, leading: false });
    await eventually(() => seen.length >= 3);
    await sleep(100);
    for (const c of [new ApiClient(t.url), B.api, seller.api]) {
      expect((await c.get(`/api/auction/${a.id}/`)).text).not.toContain('98760');
      expect((await c.get(`/api/bids/${a.id}/`)).text).not.toContain('98760');
      expect((await c.get('/api/notifications/')).text).not.toContain('98760');
    }
    expect(JSON.stringify(seen)).not.toContain('98760');
  });
});

describe('the leader and its own maximum', () => {
  it('raises it (no row, no event, no extension), repeats the same value, and may not lower it', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500, endsInMs: 60_000 });
    const A = await actor(t);
    const first = await setMax(A.api, a.id, 900);
    expect(first.body).toMatchObject({ current_price: 510, bid_count: 1, leading: true });
    const after = await auctionRow(t, a.id);
    const w = await watcher(a.id);
    const placed = collectEvents(w, 'bid:placed');

    expect((await setMax(A.api, a.id, 1200)).body).toEqual({ max_amount: 1200, current_price: 510, bid_count: 1, leading: true });
    expect((await setMax(A.api, a.id, 1200)).status).toBe(200);
    expectMaxRefusal(await setMax(A.api, a.id, 1100), 'max_only_raise', 510, 'Maksimalnu ponudu možete samo povećati.');
    expect(await maxOf(A.api, a.id)).toBe(1200);
    await sleep(100);
    expect(placed).toEqual([]);
    expect(await auctionRow(t, a.id)).toMatchObject({ seq: after.seq, bid_count: 1, end_date: after.end_date });
  });

  it('a leader without a maximum sets one without a row (≥ price + 10); it then answers a manual bid', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500 });
    const [A, B] = await Promise.all([actor(t), actor(t)]);
    expect((await bid(A.api, a.id, 600)).status).toBe(201);
    expectMaxRefusal(await setMax(A.api, a.id, 605), 'bid_too_low', 600, minBid(610));
    expect((await setMax(A.api, a.id, 800)).body).toEqual({ max_amount: 800, current_price: 600, bid_count: 1, leading: true });
    expect((await bid(B.api, a.id, 650)).body).toMatchObject({ current_price: 660, leading: false });
    expect(await history(a.id)).toEqual([
      [A.user.id, 600, false],
      [B.user.id, 650, false],
      [A.user.id, 660, true],
    ]);
  });

  it('the holder of the active maximum is told to raise it instead of bidding by hand', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500 });
    const A = await actor(t);
    await setMax(A.api, a.id, 900);
    expectBidRefusal(await bid(A.api, a.id, 1000), 'auto_bid_active', 510, 'Imate aktivnu automatsku ponudu. Povećajte je.');
    // Too low is answered first (the quick check before the transaction gives the same answer).
    expectBidRefusal(await bid(A.api, a.id, 515), 'bid_too_low', 510, minBid(520));
    expect(await auctionRow(t, a.id)).toMatchObject({ current_price: 510, bid_count: 1 });
  });

  it('blocking a user switches off their maximum: the next bid leads instead of being answered for them', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500 });
    const [A, B, admin] = await Promise.all([actor(t), actor(t), actor(t, { admin: true })]);
    expect((await setMax(A.api, a.id, 2000)).body).toMatchObject({ current_price: 510, leading: true });
    expect((await admin.api.post(`/api/admin/users/${A.user.id}/block/`, {})).status).toBe(200);
    expect((await bid(B.api, a.id, 600)).body).toMatchObject({ current_price: 600, leading: true });
    expect(await history(a.id)).toEqual([
      [A.user.id, 510, true],
      [B.user.id, 600, false],
    ]);
    // Unblocked, A has no maximum left: it must set a new one.
    expect((await admin.api.post(`/api/admin/users/${A.user.id}/unblock/`, {})).status).toBe(200);
    expect(await maxOf(await loginAs(t.url, A.user), a.id)).toBeNull();
  });

  it('a beaten bidder sets a new maximum in the same row and leads with it', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500 });
    const [A, B] = await Promise.all([actor(t), actor(t)]);
    await setMax(A.api, a.id, 900);
    await setMax(B.api, a.id, 2000);
    expect(await maxOf(A.api, a.id)).toBeNull();
    expect((await setMax(A.api, a.id, 3000)).body).toEqual({ max_amount: 3000, current_price: 2010, bid_count: 5, leading: true });
    expect(await maxOf(A.api, a.id)).toBe(3000);
    expect(await maxOf(B.api, a.id)).toBeNull();
    expect(await history(a.id)).toEqual([
      [A.user.id, 510, true],
      [A.user.id, 900, true],
      [B.user.id, 910, true],
      [B.user.id, 2000, true],
      [A.user.id, 2010, true],
    ]);
    const rows = await t.ctx.db.selectFrom('auto_bids').selectAll().where('auction_id', '=', a.id).orderBy('bidder_id').execute();
    expect(rows.map((r) => [r.bidder_id, r.max_amount, r.active])).toEqual(
      [
        [A.user.id, 3000, 1],
        [B.user.id, 2000, 0],
      ].sort((x, y) => x[0]! - y[0]!),
    );
  });
});

describe('Idempotency-Key and soft close', () => {
  it('a bid equal to the leader’s maximum: the leader’s row is committed, the refusal stored and replayed', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500 });
    const [A, E] = await Promise.all([actor(t), actor(t)]);
    await setMax(A.api, a.id, 700);
    const headers = { 'idempotency-key': `eq-${a.id}` };
    const first = await E.api.post('/api/bids/', { auction_item_id: a.id, amount: 700 }, { headers });
    expectBidRefusal(first, 'bid_too_low', 700, minBid(710));
    const again = await E.api.post('/api/bids/', { auction_item_id: a.id, amount: 700 }, { headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await history(a.id)).toEqual([
      [A.user.id, 510, true],
      [A.user.id, 700, true],
    ]);
    const placed = await E.api.post('/api/bids/', { auction_item_id: a.id, amount: 710 }, { headers: { 'idempotency-key': `win-${a.id}` } });
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ amount: 710, leading: true });
  });

  it('automatic rows extend the end under soft close, each bid:placed carrying it', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500, endsInMs: 30_000 });
    const [A, B] = await Promise.all([actor(t), actor(t)]);
    const w = await watcher(a.id);
    const placed = collectEvents(w, 'bid:placed');
    const before = Date.now();
    await setMax(A.api, a.id, 1000);
    await setMax(B.api, a.id, 700);
    await eventually(() => placed.length >= 3);
    const end = new Date((await auctionRow(t, a.id)).end_date).getTime();
    expect(end).toBeGreaterThanOrEqual(before + 120_000);
    for (const p of placed) expect(new Date(p.end_date).getTime()).toBeGreaterThan(before + 100_000);
    expect(placed.map((p) => [p.bid.amount, p.bid.auto])).toEqual([
      [510, true],
      [700, true],
      [710, true],
    ]);
  });
});

describe('at once', () => {
  it('8 bidders setting maxima and bidding by hand at the same time leave one clean ladder and one active maximum, the leader’s', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 500 });
    const people = await Promise.all(Array.from({ length: 8 }, () => actor(t)));
    const answers = await Promise.all(
      people.flatMap((p, i) => [setMax(p.api, a.id, 1000 + 37 * i), bid(p.api, a.id, 900 + 41 * i), setMax(p.api, a.id, 1500 + 53 * i)]),
    );
    for (const r of answers) expect([200, 201, 400]).toContain(r.status);
    const rows = await t.ctx.db.selectFrom('bids').selectAll().where('auction_id', '=', a.id).orderBy('id').execute();
    const amounts = rows.map((r) => r.amount);
    expect(new Set(amounts).size).toBe(amounts.length);
    for (let i = 1; i < amounts.length; i++) expect(amounts[i]).toBeGreaterThan(amounts[i - 1]!);
    const row = await auctionRow(t, a.id);
    expect(row).toMatchObject({ current_price: amounts.at(-1), bid_count: amounts.length });
    const active = await t.ctx.db.selectFrom('auto_bids').selectAll().where('auction_id', '=', a.id).where('active', '=', 1).execute();
    expect(active.length).toBeLessThanOrEqual(1);
    if (active[0]) expect(active[0].bidder_id).toBe(rows.at(-1)!.bidder_id);
  });
});
