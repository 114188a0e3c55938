/**
 * Issue 26 over real HTTP and real sockets (SQLite file; PostgreSQL under `node scripts/test-pg.mjs`):
 * relisting an unsold auction (the rules, the chain and its limit, copies of the images that survive deleting
 * the original) and editing one before its first bid (the rules, the lock against a bid, `auction:updated`,
 * search and lists at once, images).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction, type AuctionOpts } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { imagesForm, pngBuffer } from '../../support/images';
import { actor, auctionRow, bid, eventually, notificationsOf, watchAuction, type Actor } from '../../support/marketplace';
import { collectEvents, connectSocket } from '../../support/sockets';
import { closeAuction } from '../../../server/features/auctions/closing';

const NOT_EDITABLE = 'Aukcija ima ponude ili je završena i ne može se menjati.';

let t: TestServer;
let seller: Actor;
let ana: Actor;
let png: Buffer;

beforeAll(async () => {
  t = await startTestServer();
  [seller, ana] = await Promise.all([actor(t, { first_name: 'Prodavac Ponovo' }), actor(t, { first_name: 'Ana Ponuda' })]);
  png = await pngBuffer();
});
afterAll(async () => {
  await t.close();
});

/** An auction of `seller` that has ended (closed by the closer) with the outcome its bids give. */
async function endedAuction(opts: AuctionOpts = {}, bidder?: Actor, amount = 1500) {
  const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, ...opts });
  if (bidder) expect((await bid(bidder.api, a.id, amount)).status).toBe(201);
  return endNow(a.id);
}

/** Moves an auction's end into the past and closes it as the closer would. */
async function endNow(id: number) {
  await t.ctx.db.updateTable('auctions').set({ end_date: new Date(Date.now() - 1000).toISOString() }).where('id', '=', id).execute();
  await closeAuction(t.ctx, id);
  return auctionRow(t, id);
}

const relist = (api: ApiClient, id: number, body: object = { auction_duration: 3 }) => api.post(`/api/auctions/${id}/relist/`, body);
const edit = (api: ApiClient, id: number, body: object) => api.patch(`/api/auctions/${id}/`, body);

function mediaFile(url: string): string {
  return path.join(t.dataDir, url.replace(/^\/media\//, 'media/'));
}

describe('POST /api/auctions/{id}/relist/', () => {
  it('refuses a visitor and another member (403), an open or sold auction (400)', async () => {
    const unsold = await endedAuction();
    expect((await relist(new ApiClient(t.url), unsold.id)).status).toBe(403);
    const other = await relist(ana.api, unsold.id);
    expect(other.status).toBe(403);
    const open = await createAuction(t.ctx, seller.user.id);
    expect(await relist(seller.api, open.id)).toMatchObject({ status: 400, body: { code: 'not_relistable' } });
    const sold = await endedAuction({}, ana);
    expect(sold.outcome).toBe('sold');
    expect(await relist(seller.api, sold.id)).toMatchObject({ status: 400, body: { code: 'not_relistable' } });
    expect((await relist(seller.api, 999_999)).status).toBe(404);
  });

  it('makes a new auction with the same text and copies of the images; the old one stays as it was', async () => {
    const created = await seller.api.post('/api/auctionItems/', {
      title: 'Stara lampa', description: 'Mesingana lampa', current_price: 2000, city: 'Niš', phone_number: '0641234567', category: 'furniture', buy_now_price: 9000, reserve_price: 5000, auction_duration: 1,
    });
    const id = created.body.id as number;
    // Ana's saved search for lamps in Niš (issue 28): a relist is a new auction for it too.
    expect((await ana.api.post('/api/saved-searches/', { q: 'lampa', city: 'nis' })).status).toBe(201);
    const up = await seller.api.post(`/api/auction-items/${id}/images/`, imagesForm([{ name: 'a.png', data: png }, { name: 'b.png', data: png }]));
    expect(up.status).toBe(201);
    const before = await endNow(id);
    expect(before.outcome).toBe('unsold');
    const oldDetail = (await seller.api.get(`/api/auction/${id}/`)).body;

    const res = await relist(seller.api, id, { auction_duration: 3, current_price: '1500' });
    expect(res.status).toBe(201);
    const newId = res.body.id as number;
    const d = (await seller.api.get(`/api/auction/${newId}/`)).body;
    expect(d).toMatchObject({
      title: 'Stara lampa', description: 'Mesingana lampa', category: 'furniture', city: 'Niš', phone_number: '0641234567',
      current_price: 1500, starting_price: 1500, buy_now_price: 9000, reserve_price: 5000, status: 'active', bid_count: 0,
      relisted_from: id, relist_count: 1, relisted_as: null, outcome: null,
    });
    // Listed under its city (the list's normalised city, issue 28), and Ana's saved search is told of it.
    const inNis = (await new ApiClient(t.url).get('/api/auctions/?city=NIŠ&page_size=100')).body as { id: number }[];
    expect(inNis.map((c) => c.id)).toContain(newId);
    await eventually(async () => (await notificationsOf(t, ana.user.id, 'saved_search')).some((n) => n.auction_id === newId));
    const days = (Date.parse(d.end_date) - Date.now()) / 1000 / t.ctx.config.auctionDaySeconds;
    expect(days).toBeGreaterThan(2.9);
    expect(days).toBeLessThanOrEqual(3);
    // New files under new names.
    expect(d.images).toHaveLength(2);
    const oldUrls = oldDetail.images.flatMap((i: { image: string; thumbnail: string }) => [i.image, i.thumbnail]);
    for (const img of d.images as { image: string; thumbnail: string }[]) {
      expect(oldUrls).not.toContain(img.image);
      expect(oldUrls).not.toContain(img.thumbnail);
    }
    // The old one is unchanged, and says who relisted it.
    expect(await auctionRow(t, id)).toEqual(before);
    expect((await seller.api.get(`/api/auction/${id}/`)).body).toMatchObject({ relisted_as: newId, relist_count: 0, relisted_from: null });
    const own = (await seller.api.get('/api/my-auctions/')).body as { id: number; relisted_as: number | null; outcome: string | null }[];
    expect(own.find((c) => c.id === id)).toMatchObject({ relisted_as: newId, outcome: 'unsold' });

    // Deleting the original leaves the relisted auction's files in place.
    expect((await seller.api.delete(`/api/auctionItems/delete/${id}/`)).status).toBe(204);
    for (const url of oldUrls) await eventually(() => !fs.existsSync(mediaFile(url)));
    for (const img of d.images as { image: string; thumbnail: string }[]) {
      expect(fs.existsSync(mediaFile(img.image))).toBe(true);
      const served = await new ApiClient(t.url).get(img.thumbnail);
      expect(served.status).toBe(200);
    }
    expect((await seller.api.get(`/api/auction/${newId}/`)).body).toMatchObject({ relisted_from: null, relist_count: 1 });
  });

  it('keeps old values for fields not given, null removes an option, and checks them as create does', async () => {
    const a = await endedAuction({ buy_now_price: 8000, reserve_price: 5000 }, ana, 1200);
    expect(a.outcome).toBe('reserve_not_met');
    const bad = await relist(seller.api, a.id, { auction_duration: 3, current_price: 7995 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      buy_now_price: ['Cena „Kupi odmah” mora biti najmanje 10 din veća od početne cene.'],
      reserve_price: ['Rezervna cena mora biti najmanje 10 din veća od početne cene.'],
    });
    expect((await relist(seller.api, a.id, { auction_duration: 2 })).body).toMatchObject({ auction_duration: ['Trajanje aukcije mora biti 1, 3, 4 ili 7 dana.'] });
    const ok = await relist(seller.api, a.id, { auction_duration: 7, buy_now_price: null, reserve_price: '' });
    expect(ok.status).toBe(201);
    expect(await auctionRow(t, ok.body.id)).toMatchObject({ starting_price: 1000, buy_now_price: null, reserve_price: null, relisted_from: a.id, relist_count: 1 });
  });

  it('relists an auction once, two at once included', async () => {
    const a = await endedAuction();
    const both = await Promise.all([relist(seller.api, a.id), relist(seller.api, a.id)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(both.find((r) => r.status === 400)!.body).toMatchObject({ code: 'already_relisted', detail: 'Aukcija je već ponovo postavljena.' });
    const again = await relist(seller.api, a.id);
    expect(again.body).toMatchObject({ code: 'already_relisted', detail: 'Aukcija je već ponovo postavljena.' });
    const rows = await t.ctx.db.selectFrom('auctions').select('id').where('relisted_from', '=', a.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('allows nine relists in a chain, not a tenth', async () => {
    let current = await endedAuction({ title: 'Lanac' });
    for (let i = 1; i <= 9; i++) {
      const res = await relist(seller.api, current.id, { auction_duration: 1 });
      expect(res.status).toBe(201);
      const next = await auctionRow(t, res.body.id);
      expect(next).toMatchObject({ relisted_from: current.id, relist_count: i, title: 'Lanac' });
      current = await endNow(next.id);
    }
    const tenth = await relist(seller.api, current.id);
    expect(tenth).toMatchObject({ status: 400, body: { code: 'relist_limit', detail: 'Aukcija je već ponovo postavljena 9 puta.' } });
  });
});

describe('PATCH /api/auctions/{id}/', () => {
  it('refuses a visitor and another member (403)', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    expect((await edit(new ApiClient(t.url), a.id, { title: 'X' })).status).toBe(403);
    expect((await edit(ana.api, a.id, { title: 'X' })).status).toBe(403);
    expect((await auctionRow(t, a.id)).title).toBe(a.title);
  });

  it('changes the fields sent, never the end date; watchers get auction:updated; search and lists at once', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { title: 'Pisaca masina', description: 'Stara', starting_price: 1000, reserve_price: 3000 });
    const watcher = await connectSocket(t.url);
    await watchAuction(t, watcher, a.id);
    const seen = collectEvents(watcher, 'auction:updated');
    try {
      const res = await edit(seller.api, a.id, { title: 'Pisaća mašina Olivetti', current_price: '1200.9', city: 'Subotica', auction_duration: 7, end_date: '2030-01-01T00:00:00Z' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: a.id, title: 'Pisaća mašina Olivetti', current_price: 1200, starting_price: 1200, city: 'Subotica', description: 'Stara', reserve_price: 3000, end_date: a.end_date });
      const row = await auctionRow(t, a.id);
      expect(row).toMatchObject({ end_date: a.end_date, original_end_date: a.original_end_date, seq: a.seq + 1 });
      await eventually(() => seen.length === 1);
      expect(seen[0]).toEqual({ auction_id: a.id, seq: a.seq + 1, changes: { title: 'Pisaća mašina Olivetti', city: 'Subotica', current_price: 1200, starting_price: 1200 } });
      const found = (await ana.api.get('/api/auctions/?q=olivetti')).body as { id: number; title: string }[];
      expect(found.map((c) => c.id)).toContain(a.id);
      expect((await ana.api.get('/api/auctions/?q=pisaca masina')).body.map((c: { id: number }) => c.id)).toContain(a.id);
      // The list's city filter follows the edit (issue 28's normalised city), Cyrillic included.
      const inSubotica = (await ana.api.get('/api/auctions/?city=%D0%A1%D1%83%D0%B1%D0%BE%D1%82%D0%B8%D1%86%D0%B0&page_size=500')).body as { id: number }[];
      expect(inSubotica.map((c) => c.id)).toContain(a.id);
      const card = ((await ana.api.get('/api/auctions/?page_size=500')).body as { id: number; title: string }[]).find((c) => c.id === a.id);
      expect(card).toMatchObject({ title: 'Pisaća mašina Olivetti', current_price: 1200 });
      // The reserve's amount never goes out in the event: only whether there is one.
      await edit(seller.api, a.id, { reserve_price: 4000 });
      await edit(seller.api, a.id, { reserve_price: null });
      await eventually(() => seen.length === 3);
      expect(seen[1]!.changes).toEqual({});
      expect(seen[2]!.changes).toEqual({ has_reserve: false, reserve_met: null });
      expect(JSON.stringify(seen)).not.toContain('4000');
    } finally {
      watcher.disconnect();
    }
  });

  it('checks the options against the stored values of fields not sent', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, buy_now_price: 5000 });
    const low = await edit(seller.api, a.id, { current_price: 4995 });
    expect(low.status).toBe(400);
    expect(low.body).toMatchObject({ buy_now_price: ['Cena „Kupi odmah” mora biti najmanje 10 din veća od početne cene.'] });
    const above = await edit(seller.api, a.id, { reserve_price: 6000 });
    expect(above.body).toMatchObject({ reserve_price: ['Rezervna cena ne može biti veća od cene „Kupi odmah”.'] });
    expect((await edit(seller.api, a.id, { title: '' })).body).toMatchObject({ title: expect.any(Array) });
    expect(await auctionRow(t, a.id)).toMatchObject({ starting_price: 1000, buy_now_price: 5000, reserve_price: null, seq: a.seq });
  });

  it('refuses an edit after the first bid or the end: not_editable', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    expect((await bid(ana.api, a.id, 1010)).status).toBe(201);
    const res = await edit(seller.api, a.id, { title: 'Kasno' });
    expect(res).toMatchObject({ status: 400, body: { code: 'not_editable', detail: NOT_EDITABLE } });
    const ended = await endedAuction();
    expect((await edit(seller.api, ended.id, { title: 'Kasno' })).body).toMatchObject({ code: 'not_editable', detail: NOT_EDITABLE });
    expect((await auctionRow(t, a.id)).title).toBe(a.title);
  });

  it('an edit and a bid together: one is first, and an edit never lands after a bid', async () => {
    for (let i = 0; i < 8; i++) {
      const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
      const [e, b] = await Promise.all([edit(seller.api, a.id, { current_price: 2000, title: `Trka ${i}` }), bid(ana.api, a.id, 1010)]);
      const row = await auctionRow(t, a.id);
      if (e.status === 200) {
        // The edit was first: the bid was judged against the new price (too low).
        expect(b.status).toBe(400);
        expect(row).toMatchObject({ title: `Trka ${i}`, bid_count: 0, current_price: 2000 });
      } else {
        expect(e.body).toMatchObject({ code: 'not_editable' });
        expect(b.status).toBe(201);
        expect(row).toMatchObject({ title: a.title, bid_count: 1, current_price: 1010, starting_price: 1000 });
      }
    }
  });
});

describe('images before the first bid', () => {
  it('add, reorder and delete are refused after a bid, except the first upload; each change is auction:updated', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const p = `/api/auction-items/${a.id}/images/`;
    const watcher = await connectSocket(t.url);
    await watchAuction(t, watcher, a.id);
    const seen = collectEvents(watcher, 'auction:updated');
    try {
      const up = await seller.api.post(p, imagesForm([{ name: 'a.png', data: png }, { name: 'b.png', data: png }]));
      expect(up.status).toBe(201);
      await eventually(() => seen.length === 1);
      expect(seen[0]).toEqual({ auction_id: a.id, seq: a.seq + 1, changes: { images: up.body.images, first_image: up.body.images[0].thumbnail } });
      const ids = (up.body.images as { id: number }[]).map((i) => i.id);
      const order = await seller.api.put(`${p}order/`, { image_ids: [...ids].reverse() });
      expect(order.status).toBe(200);
      await eventually(() => seen.length === 2);
      expect(seen[1]!.changes.images!.map((i) => i.id)).toEqual([...ids].reverse());
      expect((await bid(ana.api, a.id, 1010)).status).toBe(201);
      for (const res of [
        await seller.api.post(p, imagesForm([{ name: 'c.png', data: png }])),
        await seller.api.put(`${p}order/`, { image_ids: ids }),
        await seller.api.delete(`${p}${ids[0]}/`),
      ]) {
        expect(res).toMatchObject({ status: 400, body: { code: 'not_editable', detail: NOT_EDITABLE } });
      }
      expect((await seller.api.get(`/api/auction/${a.id}/`)).body.images.map((i: { id: number }) => i.id)).toEqual([...ids].reverse());
      // An auction with bids but no image still takes its first upload.
      const bare = await createAuction(t.ctx, seller.user.id);
      expect((await bid(ana.api, bare.id, 1010)).status).toBe(201);
      expect((await seller.api.post(`/api/auction-items/${bare.id}/images/`, imagesForm([{ name: 'a.png', data: png }]))).status).toBe(201);
    } finally {
      watcher.disconnect();
    }
  });

  it('a delete before a bid is announced too', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const up = await seller.api.post(`/api/auction-items/${a.id}/images/`, imagesForm([{ name: 'a.png', data: png }, { name: 'b.png', data: png }]));
    const watcher = await connectSocket(t.url);
    await watchAuction(t, watcher, a.id);
    const seen = collectEvents(watcher, 'auction:updated');
    try {
      const first = up.body.images[0] as { id: number };
      expect((await seller.api.delete(`/api/auction-items/${a.id}/images/${first.id}/`)).status).toBe(204);
      await eventually(() => seen.length === 1);
      expect(seen[0]!.changes).toEqual({ images: [up.body.images[1]], first_image: up.body.images[1].thumbnail });
    } finally {
      watcher.disconnect();
    }
  });
});
