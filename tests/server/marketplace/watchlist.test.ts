/**
 * Issue 14, watchlist: POST/DELETE/GET /api/watchlist/ over real HTTP, `watched` on every card of every list
 * and on the detail (false for visitors), `watch_count` on the detail, and the socket snapshot of a watched
 * auction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuctionCard, Paged } from '@shared/schemas/auctions';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { actor, bid, type Actor } from '../../support/marketplace';
import { emitWithAck, socketTracker } from '../../support/sockets';
import { isForeignKeyViolation } from '../../../server/db/dialect';
import { insertWatch } from '../../../server/features/watchlist/watchlist.repository';

const H = 3600 * 1000;
let t: TestServer;
let seller: Actor;
let ana: Actor;
let bojan: Actor;
let admin: Actor;
let visitor: ApiClient;
const sockets = socketTracker();

beforeAll(async () => {
  t = await startTestServer();
  [seller, ana, bojan, admin] = await Promise.all([actor(t), actor(t), actor(t), actor(t, { admin: true })]);
  visitor = new ApiClient(t.url);
});
afterAll(async () => {
  sockets.closeAll();
  await t?.close();
});

/** Cards of a plain or paged answer, parsed key for key. */
function cardsOf(body: unknown): AuctionCard[] {
  const card = AuctionCard.strict();
  return Array.isArray(body) ? z.array(card).parse(body) : Paged(card).parse(body).results;
}
const watchedIds = (body: unknown) =>
  cardsOf(body)
    .filter((c) => c.watched)
    .map((c) => c.id);
const watch = (api: ApiClient, id: unknown) => api.post('/api/watchlist/', { auction_item_id: id });

describe('POST /api/watchlist/ and DELETE /api/watchlist/{auctionId}/', () => {
  it('refuse a visitor with 403 and write nothing', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    for (const res of [await watch(visitor, a.id), await visitor.delete(`/api/watchlist/${a.id}/`), await visitor.get('/api/watchlist/')]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'not_authenticated', detail: 'Morate biti prijavljeni.' });
    }
    expect(await t.ctx.db.selectFrom('watchlist').selectAll().where('auction_id', '=', a.id).execute()).toEqual([]);
  });

  it('start a watch (201), answer 200 with the same body when already watched, and count the watchers', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const first = await watch(ana.api, a.id);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ auction_item_id: a.id, watched: true, watch_count: 1 });
    const again = await watch(ana.api, String(a.id));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ auction_item_id: a.id, watched: true, watch_count: 1 });
    const other = await watch(bojan.api, a.id);
    expect(other.status).toBe(201);
    expect(other.body.watch_count).toBe(2);
    // The watch's start is its first POST: a repeated one does not move it.
    const rows = await t.ctx.db.selectFrom('watchlist').selectAll().where('auction_id', '=', a.id).orderBy('user_id').execute();
    expect(rows.map((r) => r.user_id)).toEqual([ana.user.id, bojan.user.id].sort((x, y) => x - y));
  });

  it('answers 404 for an auction that does not exist and 400 for an id that is not one', async () => {
    const missing = await watch(ana.api, 987_654);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'not_found', detail: 'Aukcija ne postoji.' });
    for (const bad of ['abc', -1, 0, null, 1.5]) {
      const res = await watch(ana.api, bad);
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.auction_item_id).toEqual(['Aukcija nije ispravno navedena.']);
    }
    expect((await ana.api.post('/api/watchlist/', {})).status).toBe(400);
    // An auction deleted between the service's check and its insert: the insert's foreign-key violation is
    // recognised (by code, on either database) and answered as the 404 above.
    const err = await insertWatch(t.ctx.db, ana.user.id, 987_654, new Date().toISOString()).catch((e: unknown) => e);
    expect(isForeignKeyViolation(err)).toBe(true);
  });

  it('stops a watch with 204, also when it was not watched or does not exist', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    expect((await watch(ana.api, a.id)).status).toBe(201);
    expect((await watch(bojan.api, a.id)).status).toBe(201);
    const gone = await ana.api.delete(`/api/watchlist/${a.id}/`);
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    expect((await ana.api.delete(`/api/watchlist/${a.id}/`)).status).toBe(204);
    expect((await ana.api.delete('/api/watchlist/987654/')).status).toBe(204);
    expect((await ana.api.get(`/api/auction/${a.id}/`)).body).toMatchObject({ watched: false, watch_count: 1 });
    // Watching again starts a new watch.
    expect((await watch(ana.api, a.id)).status).toBe(201);
  });
});

describe('GET /api/watchlist/', () => {
  it("lists the user's watched auctions as cards, ended ones included, paged like every list", async () => {
    const cara = await actor(t);
    const soon = await createAuction(t.ctx, seller.user.id, { endsInMs: 2 * H, title: 'Sat uskoro' });
    const later = await createAuction(t.ctx, seller.user.id, { endsInMs: 5 * H, title: 'Sat kasnije' });
    const ended = await createAuction(t.ctx, seller.user.id, { endsInMs: -H, status: 'ended', title: 'Sat gotov' });
    const notMine = await createAuction(t.ctx, seller.user.id, { endsInMs: 3 * H });
    for (const a of [later, ended, soon]) expect((await watch(cara.api, a.id)).status).toBe(201);
    expect((await watch(ana.api, notMine.id)).status).toBe(201);

    const plain = await cara.api.get('/api/watchlist/');
    expect(plain.status).toBe(200);
    const cards = cardsOf(plain.body);
    expect(cards.map((c) => c.id)).toEqual([ended.id, soon.id, later.id]);
    expect(cards.map((c) => c.status)).toEqual(['ended', 'active', 'active']);
    expect(cards.every((c) => c.watched)).toBe(true);

    const page1 = await cara.api.get('/api/watchlist/?page=1&page_size=2&sort=endDateDesc');
    expect(page1.body).toMatchObject({ count: 3, next: 2, previous: null });
    expect(cardsOf(page1.body).map((c) => c.id)).toEqual([later.id, soon.id]);
    const page2 = await cara.api.get('/api/watchlist/?page=2&page_size=2&sort=endDateDesc');
    expect(page2.body).toMatchObject({ count: 3, next: null, previous: 1 });
    expect(cardsOf(page2.body).map((c) => c.id)).toEqual([ended.id]);
    expect(cardsOf((await cara.api.get('/api/watchlist/?q=kasnije')).body).map((c) => c.id)).toEqual([later.id]);

    expect((await cara.api.get('/api/watchlist/?page=0')).status).toBe(400);
    expect(cardsOf((await bojan.api.get('/api/watchlist/?q=sat')).body)).toEqual([]);
  });

  it('drops an auction deleted by its seller or an admin', async () => {
    const dana = await actor(t);
    const a = await createAuction(t.ctx, seller.user.id);
    expect((await watch(dana.api, a.id)).status).toBe(201);
    expect((await admin.api.delete(`/api/auctionItems/delete/${a.id}/`)).status).toBe(204);
    expect(cardsOf((await dana.api.get('/api/watchlist/')).body)).toEqual([]);
  });
});

describe('`watched` and `watch_count`', () => {
  it('every list marks the caller\'s watched auctions, and none for a visitor', async () => {
    const ema = await actor(t);
    const own = await createAuction(t.ctx, ema.user.id, { endsInMs: 1.5 * H, category: 'sports' });
    const a = await createAuction(t.ctx, seller.user.id, { endsInMs: 1.2 * H, category: 'sports' });
    const b = await createAuction(t.ctx, seller.user.id, { endsInMs: 1.3 * H, category: 'sports' });
    expect((await bid(ema.api, a.id, 1010)).status).toBe(201);
    expect((await bid(ema.api, b.id, 1010)).status).toBe(201);
    for (const id of [a.id, own.id]) expect((await watch(ema.api, id)).status).toBe(201);
    expect((await watch(admin.api, b.id)).status).toBe(201);

    const emaLists = ['/api/auctions/?category=sports', '/api/auctions/?category=sports&page=1', '/api/all-auction-items/?category=sports'];
    for (const url of emaLists) expect(watchedIds((await ema.api.get(url)).body), url).toEqual([a.id, own.id]);
    expect(watchedIds((await ema.api.get('/api/my-auctions/')).body)).toEqual([own.id]);
    expect(watchedIds((await ema.api.get('/api/auctionItems/?page=1')).body)).toEqual([own.id]);
    expect(watchedIds((await ema.api.get('/api/all-my-biddings/')).body)).toEqual([a.id]);
    // Popular: `a` has a recent bid; `own` (no bids, soonest ends) may be there too.
    const best = cardsOf((await ema.api.get('/api/auctions/best/')).body);
    expect(best.map((c) => c.id)).toContain(a.id);
    for (const c of best) expect(c.watched, String(c.id)).toBe(c.id === a.id || c.id === own.id);
    expect(watchedIds((await admin.api.get('/api/all-auction-items/?category=sports&status=active')).body)).toEqual([b.id]);

    for (const url of [...emaLists, '/api/auctions/best/']) {
      const cards = cardsOf((await visitor.get(url)).body);
      expect(cards.length, url).toBeGreaterThan(0);
      expect(cards.every((c) => c.watched === false), url).toBe(true);
    }
  });

  it('the detail says whether the caller watches it and how many do, fresh on each read', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const detail = (api: ApiClient) => api.get(`/api/auction/${a.id}/`).then((r) => r.body);
    expect(await detail(visitor)).toMatchObject({ watched: false, watch_count: 0 });
    expect(await detail(ana.api)).toMatchObject({ watched: false, watch_count: 0 });
    await watch(ana.api, a.id);
    await watch(bojan.api, a.id);
    expect(await detail(ana.api)).toMatchObject({ watched: true, watch_count: 2 });
    expect(await detail(seller.api)).toMatchObject({ watched: false, watch_count: 2 });
    expect(await detail(visitor)).toMatchObject({ watched: false, watch_count: 2 });
    await bojan.api.delete(`/api/watchlist/${a.id}/`);
    expect(await detail(visitor)).toMatchObject({ watched: false, watch_count: 1 });
  });

  it("the socket's auction:join snapshot is the detail as that socket's user sees it", async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    await watch(ana.api, a.id);
    const anaSocket = await sockets.connect(t.url, { cookie: ana.api.cookieHeader });
    const anon = await sockets.connect(t.url);
    const mine = await emitWithAck(anaSocket, 'auction:join', { auction_id: a.id });
    const theirs = await emitWithAck(anon, 'auction:join', { auction_id: a.id });
    expect(mine.ok && mine.auction).toMatchObject({ id: a.id, watched: true, watch_count: 1 });
    expect(theirs.ok && theirs.auction).toMatchObject({ id: a.id, watched: false, watch_count: 1 });
  });
});
