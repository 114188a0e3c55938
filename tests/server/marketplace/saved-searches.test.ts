/**
 * Issue 28: the list's price and city filters, saved searches (CRUD and their limits), and the notifications a
 * new auction brings their owners (after the commit, at most one per search per window, the rest folded), over
 * real HTTP. The property test (a saved search matches ⇔ the list shows the auction) is saved-search-property.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuctionCard, Paged } from '@shared/schemas/auctions';
import { SavedSearch } from '@shared/schemas/saved-searches';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { actor, eventually, notificationsOf, type Actor } from '../../support/marketplace';
import { flushFolds } from '../../../server/features/saved-searches/saved-searches.matcher';

const WINDOW_S = 3600;
let t: TestServer;
let seller: Actor;
let ana: Actor;
let bojan: Actor;
let visitor: ApiClient;

beforeAll(async () => {
  t = await startTestServer({ SAVED_SEARCH_WINDOW_SECONDS: String(WINDOW_S) });
  [seller, ana, bojan] = await Promise.all([actor(t), actor(t), actor(t)]);
  visitor = new ApiClient(t.url);
});
afterAll(async () => {
  await t?.close();
});

const ids = (body: unknown) => (Array.isArray(body) ? z.array(AuctionCard) : Paged(AuctionCard).transform((p) => p.results)).parse(body).map((c) => c.id);

/** Creates an auction through the API, as a member does (the only way that queues the matching). */
async function post(who: Actor, fields: { title: string; price?: number; city?: string; category?: string }): Promise<number> {
  const res = await who.api.post('/api/auctionItems/', {
    title: fields.title,
    description: 'Opis predmeta',
    current_price: fields.price ?? 1000,
    auction_duration: 3,
    city: fields.city ?? 'Beograd',
    phone_number: '0641234567',
    category: fields.category ?? 'electronics',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: number }).id;
}

describe('price and city on the lists', () => {
  it('keeps the auctions whose current price is within the bounds (inclusive) and whose city matches after normalisation', async () => {
    const tag = 'filtertest';
    const cheap = await createAuction(t.ctx, seller.user.id, { title: `${tag} jeftin`, starting_price: 500, city: 'Niš' });
    const mid = await createAuction(t.ctx, seller.user.id, { title: `${tag} srednji`, starting_price: 1500, city: 'Beograd' });
    const dear = await createAuction(t.ctx, seller.user.id, { title: `${tag} skup`, starting_price: 3000, city: 'Ниш' });
    const list = async (query: string) => {
      const res = await visitor.get(`/api/auctions/?q=${tag}&${query}`);
      expect(res.status, query).toBe(200);
      return ids(res.body).sort((a, b) => a - b);
    };
    expect(await list('min_price=1500')).toEqual([mid.id, dear.id]);
    expect(await list('max_price=1500')).toEqual([cheap.id, mid.id]);
    expect(await list('min_price=501&max_price=2999')).toEqual([mid.id]);
    expect(await list('city=nis')).toEqual([cheap.id, dear.id]);
    expect(await list(`city=${encodeURIComponent('NIŠ')}&min_price=1000`)).toEqual([dear.id]);
    expect(await list(`city=${encodeURIComponent('Београд')}&sort=priceDesc&page=1`)).toEqual([mid.id]);
    expect(await list('city=&min_price=&max_price=')).toEqual([cheap.id, mid.id, dear.id]);
    const paged = await visitor.get(`/api/auctions/?q=${tag}&min_price=1000&page=1&sort=priceAsc`);
    expect(paged.body).toMatchObject({ count: 2 });
  });

  it('answers 400 in Serbian for a bad price or city, on every list', async () => {
    for (const path of ['/api/auctions/', '/api/all-auction-items/', '/api/my-auctions/', '/api/watchlist/']) {
      const api = path === '/api/auctions/' ? visitor : ana.api;
      for (const [query, field, message] of [
        ['min_price=abc', 'min_price', 'Najniža cena nije ispravna.'],
        ['min_price=-5', 'min_price', 'Najniža cena nije ispravna.'],
        ['max_price=1.5', 'max_price', 'Najviša cena nije ispravna.'],
        [`city=${'x'.repeat(101)}`, 'city', 'Grad nije ispravan.'],
      ] as const) {
        const res = await api.get(`${path}?${query}`);
        expect(res.status, `${path}?${query}`).toBe(400);
        expect((res.body as Record<string, unknown>)[field], `${path}?${query}`).toEqual([message]);
      }
    }
  });
});

describe('POST, GET and DELETE /api/saved-searches/', () => {
  it('refuse a visitor with 403', async () => {
    for (const res of [await visitor.post('/api/saved-searches/', { q: 'x' }), await visitor.get('/api/saved-searches/'), await visitor.delete('/api/saved-searches/1/')]) {
      expect(res.status).toBe(403);
    }
  });

  it('saves a search (201) with every field, and lists it, newest first, paged', async () => {
    const m = await actor(t);
    const res = await m.api.post('/api/saved-searches/', { q: ' Gitara ', category: 'music', min_price: '100', max_price: 5000, city: 'Novi Sad' });
    expect(res.status).toBe(201);
    const saved = SavedSearch.strict().parse(res.body);
    expect(saved).toMatchObject({ q: 'Gitara', category: 'music', min_price: 100, max_price: 5000, city: 'Novi Sad' });
    const second = await m.api.post('/api/saved-searches/', { city: 'Niš' });
    expect(second.body).toMatchObject({ q: null, category: null, min_price: null, max_price: null, city: 'Niš' });
    const page = await m.api.get('/api/saved-searches/?page=1&page_size=1');
    expect(page.body).toMatchObject({ count: 2, next: 2, previous: null });
    expect((page.body as { results: SavedSearch[] }).results.map((s) => s.city)).toEqual(['Niš']);
    const page2 = await m.api.get('/api/saved-searches/?page=2&page_size=1');
    expect((page2.body as { results: SavedSearch[] }).results.map((s) => s.id)).toEqual([saved.id]);
  });

  it('needs at least one criterion and validates like the list', async () => {
    for (const body of [{}, { q: '   ' }, { category: 'all-auctions' }, { city: '' }, { q: '', min_price: '' }]) {
      const res = await ana.api.post('/api/saved-searches/', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'no_criteria', detail: 'Pretraga mora imati bar jedan kriterijum: tekst, kategoriju, cenu ili grad.' });
    }
    const bad = await ana.api.post('/api/saved-searches/', { min_price: 'abc' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ min_price: ['Najniža cena nije ispravna.'] });
  });

  it('keeps at most 20 per member', async () => {
    const m = await actor(t);
    for (let i = 0; i < 20; i++) expect((await m.api.post('/api/saved-searches/', { q: `predmet ${i}` })).status).toBe(201);
    const over = await m.api.post('/api/saved-searches/', { q: 'još jedna' });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ code: 'too_many', detail: 'Možete sačuvati najviše 20 pretraga.' });
    expect((await m.api.get('/api/saved-searches/')).body).toMatchObject({ count: 20 });
  });

  it('deletes one’s own (204) and answers 404 for someone else’s', async () => {
    const saved = SavedSearch.parse((await ana.api.post('/api/saved-searches/', { q: 'brisanje' })).body);
    expect((await bojan.api.delete(`/api/saved-searches/${saved.id}/`)).status).toBe(404);
    expect((await ana.api.delete(`/api/saved-searches/${saved.id}/`)).status).toBe(204);
    expect((await ana.api.delete(`/api/saved-searches/${saved.id}/`)).status).toBe(404);
  });
});

describe('notifications of a new auction', () => {
  it('tells the owner of a matching search at once, in-app and by mail, never the seller, nor for a non-match', async () => {
    const owner = await actor(t);
    await owner.api.post('/api/saved-searches/', { q: 'Harmonika', max_price: 20_000 });
    await owner.api.post('/api/saved-searches/', { city: 'Кикинда' });
    // The seller's own search matches the seller's auction, and is never told.
    await seller.api.post('/api/saved-searches/', { q: 'harmonika' });
    const id = await post(seller, { title: 'Harmonika Weltmeister', price: 15_000 });
    await post(seller, { title: 'Harmonika skupa', price: 25_000 });
    await eventually(async () => (await notificationsOf(t, owner.user.id, 'saved_search')).length >= 1);
    const got = await notificationsOf(t, owner.user.id, 'saved_search');
    expect(got.map((n) => n.message)).toEqual([`Nova aukcija za vašu pretragu „Harmonika”: <a href="/aukcija/${id}">Harmonika Weltmeister</a>`]);
    expect(got[0].auction_id).toBe(id);
    const kikinda = await post(bojan, { title: 'Bicikl', city: 'Kikinda', category: 'sports' });
    await eventually(async () => (await notificationsOf(t, owner.user.id, 'saved_search')).length === 2);
    const all = await notificationsOf(t, owner.user.id, 'saved_search');
    expect(all[1].message).toBe(`Nova aukcija za vašu sačuvanu pretragu: <a href="/aukcija/${kikinda}">Bicikl</a>`);
    const mails = await t.ctx.db.selectFrom('mail_queue').select(['kind', 'auction_id']).where('user_id', '=', owner.user.id).execute();
    expect(mails).toEqual([
      { kind: 'saved_search', auction_id: id },
      { kind: 'saved_search', auction_id: kikinda },
    ]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await notificationsOf(t, seller.user.id, 'saved_search')).toEqual([]);
    expect(await notificationsOf(t, owner.user.id, 'saved_search')).toHaveLength(2);
  });

  it('sends no mail when the member turned the kind off (in-app only)', async () => {
    const owner = await actor(t);
    expect((await owner.api.put('/api/notification-settings/', { email: { saved_search: false } })).status).toBe(200);
    await owner.api.post('/api/saved-searches/', { q: 'tiha pretraga' });
    await post(seller, { title: 'Tiha pretraga predmet' });
    await eventually(async () => (await notificationsOf(t, owner.user.id, 'saved_search')).length === 1);
    expect(await t.ctx.db.selectFrom('mail_queue').select('id').where('user_id', '=', owner.user.id).execute()).toEqual([]);
  });

  it('sends at most one per search per hour: later matches fold into one at the hour’s end, naming how many', async () => {
    const owner = await actor(t);
    const saved = SavedSearch.parse((await owner.api.post('/api/saved-searches/', { q: 'lampa' })).body);
    const first = await post(seller, { title: 'Lampa stona' });
    await eventually(async () => (await notificationsOf(t, owner.user.id, 'saved_search')).length === 1);
    await post(seller, { title: 'Lampa podna' });
    const last = await post(bojan, { title: 'Lampa zidna' });
    const savedRow = () => t.ctx.db.selectFrom('saved_searches').selectAll().where('id', '=', saved.id).executeTakeFirstOrThrow();
    await eventually(async () => (await savedRow()).pending_count === 2);
    const row = await savedRow();
    expect(row.pending_auction_id).toBe(last);
    expect(await notificationsOf(t, owner.user.id, 'saved_search')).toHaveLength(1);
    // Not yet: the hour has not ended.
    await flushFolds(t.ctx, Date.now() + 1000);
    expect(await notificationsOf(t, owner.user.id, 'saved_search')).toHaveLength(1);
    // At its end: one notification for both.
    expect(await flushFolds(t.ctx, Date.now() + WINDOW_S * 1000 + 1000)).toBeGreaterThanOrEqual(1);
    const all = await notificationsOf(t, owner.user.id, 'saved_search');
    expect(all.map((n) => n.message)).toEqual([
      `Nova aukcija za vašu pretragu „lampa”: <a href="/aukcija/${first}">Lampa stona</a>`,
      `Nove aukcije za vašu pretragu „lampa”: još 2 u poslednjih sat vremena, najnovija: <a href="/aukcija/${last}">Lampa zidna</a>`,
    ]);
    // Sent once.
    await flushFolds(t.ctx, Date.now() + WINDOW_S * 1000 + 2000);
    expect(await notificationsOf(t, owner.user.id, 'saved_search')).toHaveLength(2);
  });
});
