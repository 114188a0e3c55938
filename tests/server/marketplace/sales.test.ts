/**
 * Issue 23, sales and ratings over real HTTP and real sockets: GET /api/sales/, POST /api/sales/{id}/rating/,
 * POST /api/ratings/{id}/reply/, the `rating_received` notification (REST and live, with `kind`), ratings that
 * outlive a deleted auction, blocked members, and `seller_rating` on the auction detail and its socket snapshot.
 * The rating window with a short AUCTION_DAY_SECONDS is in sales-window.test.ts. Runs on SQLite and, through
 * `node scripts/test-pg.mjs`, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuctionDetail } from '@shared/schemas/auctions';
import { Rating, SalesPage } from '@shared/schemas/sales';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { actor, bid, notificationsOf, type Actor } from '../../support/marketplace';
import { ratingOf, saleOf } from '../../support/sales';
import { emitWithAck, socketTracker, sleep, waitForEvent } from '../../support/sockets';
import { userRowsWritten } from '../../support/factories';

const DAY_MS = 86_400_000;
let t: TestServer;
let buyer: Actor;
let other: Actor;
let admin: Actor;
let visitor: ApiClient;
const sockets = socketTracker();

beforeAll(async () => {
  t = await startTestServer();
  [buyer, other, admin] = await Promise.all([
    actor(t, { first_name: 'Bojan', city: 'Niš', phone_number: '0644445556' }),
    actor(t, { first_name: 'Treći' }),
    actor(t, { admin: true }),
  ]);
  visitor = new ApiClient(t.url);
  await visitor.ensureCsrf();
});
afterAll(async () => {
  sockets.closeAll();
  await t?.close();
});

const rate = (api: ApiClient, auctionId: number | string, body: unknown) => api.post(`/api/sales/${auctionId}/rating/`, body);
const reply = (api: ApiClient, ratingId: number | string, body: unknown) => api.post(`/api/ratings/${ratingId}/reply/`, body);
/** A fresh pair of parties (ratings of one test never show in another's counts). */
const pair = async () => Promise.all([actor(t, { first_name: 'Prodavac' }), actor(t, { first_name: 'Kupac' })]);

describe('GET /api/sales/', () => {
  it('refuses a visitor with 403', async () => {
    const res = await visitor.get('/api/sales/');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('not_authenticated');
  });

  it("lists the caller's sales, both sides, newest end first, with the other party's contact and score", async () => {
    const [s, b] = await pair();
    const older = await saleOf(t.ctx, s.user.id, b.user.id, { endedMsAgo: 3 * 3600_000, title: 'Starija', phone_number: '0609998887', price: 2500 });
    const newer = await saleOf(t.ctx, b.user.id, s.user.id, { endedMsAgo: 3600_000, title: 'Novija', phone_number: '0607770001' });
    // Not sales: open, ended without a winner, someone else's.
    await createAuction(t.ctx, s.user.id, { title: 'Otvorena' });
    await createAuction(t.ctx, s.user.id, { endsInMs: -3600_000, status: 'ended', title: 'Bez ponuda' });
    await saleOf(t.ctx, other.user.id, buyer.user.id, { title: 'Tuđa' });
    const fromOther = await saleOf(t.ctx, other.user.id, b.user.id, { endedMsAgo: DAY_MS });
    await ratingOf(t.ctx, fromOther, other.user.id, b.user.id, 'negative', 'Nije se javio na vreme.');

    const res = await s.api.get('/api/sales/');
    expect(res.status).toBe(200);
    const page = SalesPage.parse(res.body);
    expect(page).toMatchObject({ count: 2, next: null, previous: null });
    expect(page.results.map((r) => r.title)).toEqual(['Novija', 'Starija']);
    const [bought, sold] = page.results;
    expect(sold).toEqual({
      auction_id: older.id,
      title: 'Starija',
      first_image: null,
      price: 2500,
      ended_at: older.end_date,
      role: 'seller',
      counterpart: { id: b.user.id, first_name: 'Kupac', city: b.user.city, phone_number: b.user.phone_number, email: b.user.email, rating: { positive: 0, negative: 1 }, blocked_by_viewer: false },
      my_rating: null,
      their_rating: null,
      rate_until: new Date(Date.parse(older.end_date) + 30 * DAY_MS).toISOString(),
    });
    // The buyer sees the seller's contact for this sale: the auction's own phone.
    expect(bought).toMatchObject({ auction_id: newer.id, role: 'buyer', counterpart: { id: b.user.id, phone_number: '0607770001', email: b.user.email } });

    const asBuyer = await b.api.get('/api/sales/?role=buyer');
    expect(asBuyer.body.results.map((r) => r.auction_id)).toEqual([older.id, fromOther.id]);
    expect(asBuyer.body.results.every((r) => r.role === 'buyer')).toBe(true);
    const asSeller = await s.api.get('/api/sales/?role=seller');
    expect(asSeller.body.results.map((r) => r.auction_id)).toEqual([older.id]);
    expect((await s.api.get('/api/sales/?role=buyer')).body.results.map((r) => r.auction_id)).toEqual([newer.id]);
    expect((await s.api.get('/api/sales/?role=')).body.count).toBe(2);
  });

  it('pages like every list: 20 by default, page_size above 100 taken as 100, bad parameters 400 under their name', async () => {
    const [s, b] = await pair();
    for (let i = 0; i < 3; i++) await saleOf(t.ctx, s.user.id, b.user.id, { endedMsAgo: (i + 1) * 60_000, title: `Predmet ${i}` });
    const first = await s.api.get('/api/sales/?page=1&page_size=2');
    expect(first.body).toMatchObject({ count: 3, next: 2, previous: null });
    expect(first.body.results.map((r) => r.title)).toEqual(['Predmet 0', 'Predmet 1']);
    const second = await s.api.get('/api/sales/?page=2&page_size=2');
    expect(second.body).toMatchObject({ count: 3, next: null, previous: 1 });
    expect(second.body.results.map((r) => r.title)).toEqual(['Predmet 2']);
    expect((await s.api.get('/api/sales/?page=9')).body).toMatchObject({ count: 3, results: [], previous: 8, next: null });

    // 101 sales: page_size=500 answers 100 of them, no page_size 20.
    const many = await actor(t);
    await t.ctx.db
      .insertInto('auctions')
      .values(
        Array.from({ length: 101 }, (_, i) => ({
          seller_id: many.user.id,
          title: `Masovno ${i}`,
          description: 'opis',
          category: 'electronics',
          city: 'Beograd',
          phone_number: '0641234567',
          starting_price: 100,
          current_price: 200,
          bid_count: 1,
          end_date: new Date(Date.now() - 60_000 - i * 1000).toISOString(),
          original_end_date: new Date(Date.now() - 60_000).toISOString(),
          status: 'ended' as const,
          winner_id: b.user.id,
          search_text: 'masovno',
          created_at: new Date(Date.now() - DAY_MS).toISOString(),
          closed_at: new Date().toISOString(),
        })),
      )
      .execute();
    const big = await many.api.get('/api/sales/?page_size=500');
    expect(big.body).toMatchObject({ count: 101, next: 2, previous: null });
    expect(big.body.results).toHaveLength(100);
    const plain = await many.api.get('/api/sales/');
    expect(plain.body.results).toHaveLength(20);
    expect(plain.body.next).toBe(2);

    for (const [query, field] of [
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page_size=0', 'page_size'],
      ['page_size=x', 'page_size'],
      ['role=kupac', 'role'],
    ] as const) {
      const res = await s.api.get(`/api/sales/?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body[field], query).toEqual([expect.any(String)]);
    }
    expect((await s.api.get('/api/sales/?role=x')).body.role).toEqual(['Uloga mora biti kupac (buyer) ili prodavac (seller).']);
  });
});

describe('POST /api/sales/{auction_id}/rating/', () => {
  it('lets the seller and the winner rate each other once (201), tells the rated member live, and both see both ratings', async () => {
    const [s, b] = await pair();
    const sale = await saleOf(t.ctx, s.user.id, b.user.id, { title: 'Gitara <b>' });
    const sellerSocket = await sockets.connect(t.url, { cookie: s.api.cookieHeader });
    const buyerSocket = await sockets.connect(t.url, { cookie: b.api.cookieHeader });
    const live = waitForEvent(sellerSocket, 'notification:created', 5000);

    const byBuyer = await rate(b.api, sale.id, { value: 'positive', comment: '  Odličan prodavac, preporuka!  ' });
    expect(byBuyer.status).toBe(201);
    expect(Rating.strict().parse(byBuyer.body)).toEqual({ id: expect.any(Number), value: 'positive', comment: 'Odličan prodavac, preporuka!', created_at: expect.stringMatching(/Z$/), reply: null });
    const event = await live;
    expect(event.notification).toMatchObject({ kind: 'rating_received', auction_id: sale.id, is_read: false });
    expect(event.notification.message).toContain(`<a href="/aukcija/${sale.id}">Gitara &lt;b&gt;</a>`);
    expect(event.notification.message).toContain('pozitivnu');
    expect(event.notification.message).toContain('Od: Kupac');
    expect(event.notification.message).toContain('href="/moje-prodaje"');
    expect(event.unread_notifications_count).toBe(1);
    const listed = (await s.api.get('/api/notifications/')).body;
    expect(listed[0]).toMatchObject({ id: event.notification.id, kind: 'rating_received' });
    expect(await notificationsOf(t, b.user.id, 'rating_received')).toEqual([]);

    const buyerLive = waitForEvent(buyerSocket, 'notification:created', 5000);
    const bySeller = await rate(s.api, String(sale.id), { value: 'negative', comment: 'Kasnio je sa preuzimanjem dva dana.' });
    expect(bySeller.status).toBe(201);
    expect(bySeller.body).toMatchObject({ value: 'negative', comment: 'Kasnio je sa preuzimanjem dva dana.', reply: null });
    expect((await buyerLive).notification).toMatchObject({ kind: 'rating_received', auction_id: sale.id });
    expect((await buyerLive).notification.message).toContain('href="/moje-kupovine"');

    const rows = await t.ctx.db.selectFrom('ratings').selectAll().where('auction_id', '=', sale.id).orderBy('id').execute();
    expect(rows.map((r) => [r.rater_id, r.rated_id, r.role, r.value, r.auction_title])).toEqual([
      [b.user.id, s.user.id, 'seller', 'positive', 'Gitara <b>'],
      [s.user.id, b.user.id, 'buyer', 'negative', 'Gitara <b>'],
    ]);
    const forSeller = (await s.api.get('/api/sales/')).body.results[0];
    expect(forSeller.my_rating).toEqual(bySeller.body);
    expect(forSeller.their_rating).toEqual(byBuyer.body);
    expect(forSeller.counterpart.rating).toEqual({ positive: 0, negative: 1 });
    const forBuyer = (await b.api.get('/api/sales/')).body.results[0];
    expect(forBuyer.my_rating).toEqual(byBuyer.body);
    expect(forBuyer.their_rating).toEqual(bySeller.body);
    expect(forBuyer.counterpart.rating).toEqual({ positive: 1, negative: 0 });
  });

  it("is once and final: a second rating is 400 'Već ste ocenili ovu kupoprodaju.', also when two arrive at once", async () => {
    const [s, b] = await pair();
    const sale = await saleOf(t.ctx, s.user.id, b.user.id);
    expect((await rate(b.api, sale.id, { value: 'positive' })).status).toBe(201);
    const again = await rate(b.api, sale.id, { value: 'negative', comment: 'Ipak nisam zadovoljan.' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'already_rated', detail: 'Već ste ocenili ovu kupoprodaju.' });

    const sale2 = await saleOf(t.ctx, s.user.id, b.user.id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => rate(s.api, sale2.id, { value: 'positive', comment: 'Brzo plaćanje.' })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    for (const r of answers.filter((x) => x.status === 400)) expect(r.body.detail).toBe('Već ste ocenili ovu kupoprodaju.');
    const stored = await t.ctx.db.selectFrom('ratings').select('id').where('auction_id', 'in', [sale.id, sale2.id]).execute();
    expect(stored).toHaveLength(2);
    expect(await notificationsOf(t, b.user.id, 'rating_received')).toHaveLength(1);
    // No route edits a rating.
    expect((await b.api.put(`/api/sales/${sale.id}/rating/`, { value: 'negative' })).status).toBe(404);
  });

  it('refuses a visitor and another member with 403, and answers 404 for what is not a sale', async () => {
    const [s, b] = await pair();
    const sale = await saleOf(t.ctx, s.user.id, b.user.id);
    const anon = await rate(visitor, sale.id, { value: 'positive' });
    expect(anon.status).toBe(403);
    expect(anon.body.code).toBe('not_authenticated');
    const stranger = await rate(other.api, sale.id, { value: 'positive' });
    expect(stranger.status).toBe(403);
    expect(stranger.body.code).toBe('forbidden');
    expect((await rate(admin.api, sale.id, { value: 'positive' })).status).toBe(403);

    const open = await createAuction(t.ctx, s.user.id);
    expect((await bid(b.api, open.id, 1010)).status).toBe(201);
    const noWinner = await createAuction(t.ctx, s.user.id, { endsInMs: -60_000, status: 'ended' });
    // Past its end but not yet closed by the closer: no winner yet, not a sale.
    const unclosed = await createAuction(t.ctx, s.user.id, { endsInMs: -10 });
    for (const id of [open.id, noWinner.id, unclosed.id, 98_765_432]) {
      for (const who of [s, b]) {
        const res = await rate(who.api, id, { value: 'positive' });
        expect(res.status, String(id)).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
    }
    for (const bad of ['abc', '0', '-1', '1.5']) expect((await rate(b.api, bad, { value: 'positive' })).status).toBe(404);
    expect(await t.ctx.db.selectFrom('ratings').select('id').where('auction_id', '=', sale.id).execute()).toEqual([]);
  });

  it('checks the input: value, comment ≤ 300 (trimmed), a negative one needs 10 characters; messages under the field', async () => {
    const [s, b] = await pair();
    const sale = await saleOf(t.ctx, s.user.id, b.user.id);
    const cases: [unknown, string, string][] = [
      [{}, 'value', 'Izaberite ocenu: pozitivna ili negativna.'],
      [{ value: 'neutral' }, 'value', 'Izaberite ocenu: pozitivna ili negativna.'],
      [{ value: 1 }, 'value', 'Izaberite ocenu: pozitivna ili negativna.'],
      [{ value: 'negative' }, 'comment', 'Obrazložite negativnu ocenu (najmanje 10 znakova).'],
      [{ value: 'negative', comment: '   kratko    ' }, 'comment', 'Obrazložite negativnu ocenu (najmanje 10 znakova).'],
      [{ value: 'positive', comment: 'x'.repeat(301) }, 'comment', 'Komentar može imati najviše 300 znakova.'],
      [{ value: 'positive', comment: 42 }, 'comment', 'Komentar nije ispravan.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await rate(b.api, sale.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body[field], JSON.stringify(body)).toEqual([message]);
      expect(res.body.detail).toBe(message);
    }
    expect((await b.api.post(`/api/sales/${sale.id}/rating/`, '[1]' as never)).status).toBe(400);
    expect(await t.ctx.db.selectFrom('ratings').select('id').where('auction_id', '=', sale.id).execute()).toEqual([]);
    // The edges: exactly 10 for a negative one, exactly 300 (after trimming), none for a positive one.
    const ok = await rate(b.api, sale.id, { value: 'negative', comment: `  ${'a'.repeat(10)}  ` });
    expect(ok.status).toBe(201);
    expect(ok.body.comment).toBe('a'.repeat(10));
    const plain = await rate(s.api, sale.id, { value: 'positive' });
    expect(plain.status).toBe(201);
    expect(plain.body.comment).toBe('');
    const long = await rate(s.api, (await saleOf(t.ctx, s.user.id, b.user.id)).id, { value: 'positive', comment: ` ${'ž'.repeat(300)} ` });
    expect(long.status).toBe(201);
    expect(long.body.comment).toBe('ž'.repeat(300));
  });

  it('refuses the rating window once it has passed (400) with the default 30 auction days', async () => {
    const [s, b] = await pair();
    const late = await saleOf(t.ctx, s.user.id, b.user.id, { endedMsAgo: 30 * DAY_MS + 60_000 });
    const res = await rate(b.api, late.id, { value: 'positive' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'window_closed', detail: 'Rok za ocenjivanje je istekao.' });
    const justIn = await saleOf(t.ctx, s.user.id, b.user.id, { endedMsAgo: 30 * DAY_MS - 60_000 });
    expect((await rate(b.api, justIn.id, { value: 'positive' })).status).toBe(201);
  });
});

describe('POST /api/ratings/{id}/reply/', () => {
  it('lets only the rated member answer, once (201, then 400), 1–300 characters', async () => {
    const [s, b] = await pair();
    const sale = await saleOf(t.ctx, s.user.id, b.user.id);
    const rated = await rate(b.api, sale.id, { value: 'negative', comment: 'Predmet nije kao na slici.' });
    const id = rated.body.id;

    expect((await reply(visitor, id, { content: 'x' })).status).toBe(403);
    const byRater = await reply(b.api, id, { content: 'Ja sam ocenio.' });
    expect(byRater.status).toBe(403);
    expect(byRater.body.code).toBe('forbidden');
    expect((await reply(other.api, id, { content: 'Nisam učesnik.' })).status).toBe(403);
    expect((await reply(admin.api, id, { content: 'Admin.' })).status).toBe(403);
    expect((await reply(s.api, 98_765_432, { content: 'Nema je.' })).status).toBe(404);
    for (const [body, message] of [
      [{}, 'Unesite odgovor.'],
      [{ content: '   ' }, 'Unesite odgovor.'],
      [{ content: 7 }, 'Unesite odgovor.'],
      [{ content: 'y'.repeat(301) }, 'Odgovor može imati najviše 300 znakova.'],
    ] as const) {
      const res = await reply(s.api, id, body);
      expect(res.status).toBe(400);
      expect(res.body.content).toEqual([message]);
    }

    const ok = await reply(s.api, id, { content: '  Na slici se vidi ogrebotina, opisana je.  ' });
    expect(ok.status).toBe(201);
    expect(Rating.strict().parse(ok.body)).toEqual({ ...rated.body, reply: { content: 'Na slici se vidi ogrebotina, opisana je.', created_at: expect.stringMatching(/Z$/) } });
    const second = await reply(s.api, id, { content: 'Još nešto.' });
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({ code: 'already_replied', detail: 'Već ste odgovorili na ovu ocenu.' });
    expect((await b.api.get('/api/sales/')).body.results[0].my_rating?.reply?.content).toBe('Na slici se vidi ogrebotina, opisana je.');
    expect((await s.api.get('/api/sales/')).body.results[0].their_rating?.reply?.content).toBe('Na slici se vidi ogrebotina, opisana je.');
  });

  it('keeps exactly one answer when several arrive at once', async () => {
    const [s, b] = await pair();
    const sale = await saleOf(t.ctx, s.user.id, b.user.id);
    const id = await ratingOf(t.ctx, sale, b.user.id, s.user.id);
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => reply(s.api, id, { content: `Odgovor ${i}` })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400]);
    const row = await t.ctx.db.selectFrom('ratings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.reply_content).toBe(answers.find((r) => r.status === 201)!.body.reply?.content);
  });
});

describe('ratings outlive their auction and survive a block', () => {
  it('an admin deletes a sold auction: its ratings stay, count, keep the title, link null; the sale is gone', async () => {
    const [s, b] = await pair();
    const sale = await saleOf(t.ctx, s.user.id, b.user.id, { title: 'Lampa stona' });
    expect((await rate(b.api, sale.id, { value: 'positive', comment: 'Sve u redu.' })).status).toBe(201);
    expect((await rate(s.api, sale.id, { value: 'positive' })).status).toBe(201);
    expect((await s.api.delete(`/api/auctionItems/delete/${sale.id}/`)).status).toBe(400);
    expect((await admin.api.delete(`/api/auctionItems/delete/${sale.id}/`)).status).toBe(204);

    const rows = await t.ctx.db.selectFrom('ratings').selectAll().where('auction_title', '=', 'Lampa stona').execute();
    expect(rows.map((r) => r.auction_id)).toEqual([null, null]);
    expect((await visitor.get(`/api/members/${s.user.id}/`)).body.rating).toEqual({ positive: 1, negative: 0, percent_positive: 100 });
    const listed = (await visitor.get(`/api/members/${s.user.id}/ratings/?page=1`)).body.results;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ role: 'seller', auction: { id: null, title: 'Lampa stona' }, from: { id: b.user.id, first_name: 'Kupac' } });
    expect((await s.api.get('/api/sales/')).body.count).toBe(0);
    expect((await rate(b.api, sale.id, { value: 'positive' })).status).toBe(404);
    // The rated member may still answer a rating of a deleted auction.
    expect((await reply(s.api, listed[0].id, { content: 'Hvala!' })).status).toBe(201);
  });

  it('a blocked member can neither rate nor answer; the ratings they gave and got stay and count', async () => {
    const [s, b] = await pair();
    const sale = await saleOf(t.ctx, s.user.id, b.user.id);
    const sale2 = await saleOf(t.ctx, s.user.id, b.user.id);
    const given = await rate(b.api, sale.id, { value: 'positive', comment: 'Dobar prodavac.' });
    expect(given.status).toBe(201);
    const got = await rate(s.api, sale.id, { value: 'negative', comment: 'Nije platio na vreme.' });
    expect(got.status).toBe(201);
    // Blocked while a session is alive (defence in depth), then by the admin (which ends the session).
    await t.ctx.db.updateTable('users').set({ blocked_at: new Date().toISOString() }).where('id', '=', b.user.id).execute();
    await userRowsWritten(t.ctx);
    const refused = await rate(b.api, sale2.id, { value: 'positive' });
    expect(refused.status).toBe(403);
    expect((await reply(b.api, got.body.id, { content: 'Jesam platio.' })).status).toBe(403);
    await t.ctx.db.updateTable('users').set({ blocked_at: null }).where('id', '=', b.user.id).execute();
    await userRowsWritten(t.ctx);
    expect((await admin.api.post(`/api/admin/users/${b.user.id}/block/`)).status).toBe(200);
    expect((await rate(b.api, sale2.id, { value: 'positive' })).status).toBe(403);
    expect(await t.ctx.db.selectFrom('ratings').select('id').where('auction_id', '=', sale2.id).execute()).toEqual([]);

    expect((await visitor.get(`/api/members/${s.user.id}/`)).body.rating).toMatchObject({ positive: 1, negative: 0 });
    expect((await visitor.get(`/api/members/${b.user.id}/`)).status).toBe(404);
    expect((await s.api.get('/api/sales/')).body.results.find((r) => r.auction_id === sale.id)?.counterpart.rating).toEqual({ positive: 0, negative: 1 });
    // The other party may still rate a sale with the blocked member.
    expect((await rate(s.api, sale2.id, { value: 'positive' })).status).toBe(201);
  });
});

describe('seller_rating on the auction detail', () => {
  it('counts every rating the seller got (as seller or buyer), on GET and in the socket snapshot', async () => {
    const [s, b] = await pair();
    const open = await createAuction(t.ctx, s.user.id);
    const fresh = await visitor.get(`/api/auction/${open.id}/`);
    expect(AuctionDetail.strict().parse(fresh.body).seller_rating).toEqual({ positive: 0, negative: 0 });
    await ratingOf(t.ctx, await saleOf(t.ctx, s.user.id, b.user.id), b.user.id, s.user.id, 'positive');
    await ratingOf(t.ctx, await saleOf(t.ctx, s.user.id, b.user.id), b.user.id, s.user.id, 'positive');
    await ratingOf(t.ctx, await saleOf(t.ctx, b.user.id, s.user.id), b.user.id, s.user.id, 'negative', 'Nije preuzeo predmet.');
    // Ratings the seller gave do not count for them.
    await ratingOf(t.ctx, await saleOf(t.ctx, s.user.id, other.user.id), s.user.id, other.user.id, 'negative', 'Nije platio ništa.');
    expect((await visitor.get(`/api/auction/${open.id}/`)).body.seller_rating).toEqual({ positive: 2, negative: 1 });
    const socket = await sockets.connect(t.url);
    const ack = await emitWithAck(socket, 'auction:join', { auction_id: open.id });
    expect(ack.ok && ack.auction.seller_rating).toEqual({ positive: 2, negative: 1 });
  });
});

describe('notifications carry their kind', () => {
  it('on GET /api/notifications/ and live, for the existing kinds too', async () => {
    const [s, b] = await pair();
    const socket = await sockets.connect(t.url, { cookie: s.api.cookieHeader });
    const live = waitForEvent(socket, 'notification:created', 5000);
    const a = await createAuction(t.ctx, s.user.id);
    expect((await bid(b.api, a.id, 1010)).status).toBe(201);
    expect((await live).notification.kind).toBe('new_bid');
    expect((await b.api.post('/api/comments/create/', { auction_item_id: a.id, content: 'Pitanje?' })).status).toBe(201);
    await sleep(50);
    const kinds = (await s.api.get('/api/notifications/')).body.map((n) => n.kind);
    expect(kinds).toEqual(['new_comment', 'new_bid']);
  });
});
