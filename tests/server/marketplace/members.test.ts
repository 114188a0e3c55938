/**
 * Issue 23, public member profiles: GET /api/members/{id}/, /ratings/ and /auctions/ over real HTTP. Public,
 * never an e-mail or a phone; a blocked or unknown member is 404. Runs on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuctionCard, Paged } from '@shared/schemas/auctions';
import { MemberProfile, MemberRatingsPage } from '@shared/schemas/sales';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { actor, type Actor } from '../../support/marketplace';
import { ratingOf, saleOf } from '../../support/sales';

const H = 3600_000;
let t: TestServer;
let visitor: ApiClient;
let admin: Actor;

beforeAll(async () => {
  t = await startTestServer();
  visitor = new ApiClient(t.url);
  admin = await actor(t, { admin: true });
});
afterAll(() => t?.close());

describe('GET /api/members/{id}/', () => {
  it('shows name, city, member since, the score with percent_positive and the counts, to anyone; never contact', async () => {
    const m = await actor(t, { first_name: 'Milica', city: 'Kragujevac', phone_number: '0631234999', email: 'milica.profil@example.com' });
    const [x, y] = await Promise.all([actor(t), actor(t)]);
    // Sold two (one rated positive, one negative), bought one (rated positive), one open auction, one ended
    // without bids, one still open of someone else.
    const s1 = await saleOf(t.ctx, m.user.id, x.user.id);
    const s2 = await saleOf(t.ctx, m.user.id, y.user.id);
    const b1 = await saleOf(t.ctx, x.user.id, m.user.id);
    await createAuction(t.ctx, m.user.id, { title: 'Otvorena' });
    await createAuction(t.ctx, m.user.id, { endsInMs: -H, status: 'ended' });
    await createAuction(t.ctx, m.user.id, { endsInMs: -10 }); // past its end, not yet closed: not open
    await ratingOf(t.ctx, s1, x.user.id, m.user.id, 'positive');
    await ratingOf(t.ctx, s2, y.user.id, m.user.id, 'negative', 'Predmet nije stigao.');
    await ratingOf(t.ctx, b1, x.user.id, m.user.id, 'positive');
    await ratingOf(t.ctx, b1, m.user.id, x.user.id, 'negative', 'Nije se javio nedelju dana.');

    for (const api of [visitor, x.api, m.api, admin.api]) {
      const res = await api.get(`/api/members/${m.user.id}/`);
      expect(res.status).toBe(200);
      expect(MemberProfile.strict().parse(res.body)).toEqual({
        id: m.user.id,
        first_name: 'Milica',
        city: 'Kragujevac',
        member_since: m.user.created_at,
        rating: { positive: 2, negative: 1, percent_positive: 67 },
        sold_count: 2,
        bought_count: 1,
        active_auctions_count: 1,
        blocked_by_viewer: false,
      });
      expect(res.text).not.toContain('milica.profil@example.com');
      expect(res.text).not.toContain('0631234999');
    }
  });

  it('has percent_positive null without ratings and rounds it (1 of 3 → 33, 1 of 8 → 13)', async () => {
    const m = await actor(t);
    expect((await visitor.get(`/api/members/${m.user.id}/`)).body).toMatchObject({ rating: { positive: 0, negative: 0, percent_positive: null }, sold_count: 0, bought_count: 0, active_auctions_count: 0 });
    const others = await Promise.all(Array.from({ length: 8 }, () => actor(t)));
    const sales = await Promise.all(others.map((o) => saleOf(t.ctx, m.user.id, o.user.id)));
    for (const [i, sale] of sales.entries()) await ratingOf(t.ctx, sale, others[i]!.user.id, m.user.id, i === 0 ? 'positive' : 'negative', 'Loše iskustvo sa prodavcem.');
    expect((await visitor.get(`/api/members/${m.user.id}/`)).body.rating).toEqual({ positive: 1, negative: 7, percent_positive: 13 });
    const n = await actor(t);
    const [p, q] = await Promise.all([saleOf(t.ctx, n.user.id, m.user.id), saleOf(t.ctx, n.user.id, others[0]!.user.id)]);
    await ratingOf(t.ctx, p, m.user.id, n.user.id, 'positive');
    await ratingOf(t.ctx, q, others[0]!.user.id, n.user.id, 'negative', 'Nije poslao predmet.');
    await ratingOf(t.ctx, await saleOf(t.ctx, n.user.id, others[1]!.user.id), others[1]!.user.id, n.user.id, 'negative', 'Nije poslao predmet.');
    expect((await visitor.get(`/api/members/${n.user.id}/`)).body.rating).toEqual({ positive: 1, negative: 2, percent_positive: 33 });
  });

  it('answers 404 for a blocked member and an unknown id, on all three routes', async () => {
    const blocked = await actor(t);
    await saleOf(t.ctx, blocked.user.id, admin.user.id);
    await createAuction(t.ctx, blocked.user.id);
    expect((await admin.api.post(`/api/admin/users/${blocked.user.id}/block/`)).status).toBe(200);
    for (const id of [blocked.user.id, 98_765_432]) {
      for (const path of ['', 'ratings/', 'auctions/']) {
        const res = await visitor.get(`/api/members/${id}/${path}`);
        expect(res.status, `${id} ${path}`).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
    }
    for (const bad of ['abc', '0', '-3']) expect((await visitor.get(`/api/members/${bad}/`)).status).toBe(404);
    // Unblocked, the profile is back.
    expect((await admin.api.post(`/api/admin/users/${blocked.user.id}/unblock/`)).status).toBe(200);
    expect((await visitor.get(`/api/members/${blocked.user.id}/`)).status).toBe(200);
  });
});

describe('GET /api/members/{id}/ratings/', () => {
  it('lists the ratings the member got, newest first, with role, rater, auction and answer; paged', async () => {
    const m = await actor(t, { first_name: 'Marko' });
    const [a, b] = await Promise.all([actor(t, { first_name: 'Ana' }), actor(t, { first_name: 'Boris' })]);
    const sold = await saleOf(t.ctx, m.user.id, a.user.id, { title: 'Bicikl' });
    const bought = await saleOf(t.ctx, b.user.id, m.user.id, { title: 'Kaciga' });
    const r1 = await ratingOf(t.ctx, sold, a.user.id, m.user.id, 'positive', 'Sve po dogovoru.');
    await new Promise((r) => setTimeout(r, 5));
    const r2 = await ratingOf(t.ctx, bought, b.user.id, m.user.id, 'negative', 'Kasnio sa uplatom.');
    await ratingOf(t.ctx, sold, m.user.id, a.user.id); // given, not got
    await t.ctx.db.updateTable('ratings').set({ reply_content: 'Uplatio sam odmah.', reply_created_at: new Date().toISOString() }).where('id', '=', r2).execute();

    const res = await visitor.get(`/api/members/${m.user.id}/ratings/`);
    expect(res.status).toBe(200);
    const page = MemberRatingsPage.parse(res.body);
    expect(page).toMatchObject({ count: 2, next: null, previous: null });
    expect(page.results).toEqual([
      {
        id: r2,
        value: 'negative',
        comment: 'Kasnio sa uplatom.',
        created_at: expect.stringMatching(/Z$/),
        role: 'buyer',
        from: { id: b.user.id, first_name: 'Boris' },
        auction: { id: bought.id, title: 'Kaciga' },
        reply: { content: 'Uplatio sam odmah.', created_at: expect.stringMatching(/Z$/) },
      },
      {
        id: r1,
        value: 'positive',
        comment: 'Sve po dogovoru.',
        created_at: expect.stringMatching(/Z$/),
        role: 'seller',
        from: { id: a.user.id, first_name: 'Ana' },
        auction: { id: sold.id, title: 'Bicikl' },
        reply: null,
      },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(a.user.email);
    const p1 = await visitor.get(`/api/members/${m.user.id}/ratings/?page=1&page_size=1`);
    expect(p1.body).toMatchObject({ count: 2, next: 2, previous: null, results: [{ id: r2 }] });
    const p2 = await visitor.get(`/api/members/${m.user.id}/ratings/?page=2&page_size=1`);
    expect(p2.body).toMatchObject({ count: 2, next: null, previous: 1, results: [{ id: r1 }] });
    for (const q of ['page=0', 'page=x', 'page_size=-1']) expect((await visitor.get(`/api/members/${m.user.id}/ratings/?${q}`)).status, q).toBe(400);
    expect((await visitor.get(`/api/members/${m.user.id}/ratings/?page_size=1000`)).body.results).toHaveLength(2);
  });
});

describe('GET /api/members/{id}/auctions/', () => {
  it("lists the member's open auctions as cards, soonest end first, paged (20 a page by default)", async () => {
    const m = await actor(t);
    const later = await createAuction(t.ctx, m.user.id, { endsInMs: 5 * H, title: 'Kasnije' });
    const soon = await createAuction(t.ctx, m.user.id, { endsInMs: 2 * H, title: 'Uskoro' });
    await createAuction(t.ctx, m.user.id, { endsInMs: -H, status: 'ended' });
    await saleOf(t.ctx, m.user.id, admin.user.id);
    await createAuction(t.ctx, admin.user.id, { endsInMs: H });
    const res = await visitor.get(`/api/members/${m.user.id}/auctions/`);
    expect(res.status).toBe(200);
    const page = Paged(AuctionCard.strict()).parse(res.body);
    expect(page).toMatchObject({ count: 2, next: null, previous: null });
    expect(page.results.map((c) => c.id)).toEqual([soon.id, later.id]);
    expect(page.results.every((c) => c.status === 'active' && c.seller === m.user.id && c.watched === false)).toBe(true);
    const paged = await visitor.get(`/api/members/${m.user.id}/auctions/?page=2&page_size=1`);
    expect(paged.body).toMatchObject({ count: 2, next: null, previous: 1 });
    expect(paged.body.results.map((c) => c.id)).toEqual([later.id]);
    // A logged-in viewer sees which of them they watch.
    await t.ctx.db.insertInto('watchlist').values({ user_id: admin.user.id, auction_id: soon.id, created_at: new Date().toISOString() }).execute();
    expect((await admin.api.get(`/api/members/${m.user.id}/auctions/?page=1`)).body.results.map((c) => c.watched)).toEqual([true, false]);
    expect((await visitor.get(`/api/members/${m.user.id}/auctions/?page=abc`)).status).toBe(400);

    const many = await actor(t);
    for (let i = 0; i < 21; i++) await createAuction(t.ctx, many.user.id, { endsInMs: H + i * 1000 });
    const first = await visitor.get(`/api/members/${many.user.id}/auctions/`);
    expect(first.body).toMatchObject({ count: 21, next: 2, previous: null });
    expect(first.body.results).toHaveLength(20);
    expect((await visitor.get(`/api/members/${many.user.id}/`)).body.active_auctions_count).toBe(21);
  });
});
