/**
 * Authorisation matrix (issue 7 §2, ASVS 5.0 V8): seven actors × every object route and socket event,
 * asserted against the expected table below. Each cell runs on fresh objects, so one actor's success
 * never changes another's answer; every refused write leaves the stored state unchanged.
 *
 * Existence oracles: notification ids are private, so someone else's notification answers exactly like
 * an unknown id (404, same body). Auctions and comments are public (ids appear in every list and in
 * GET /api/comments/{id}/), so "forbidden" (403) for someone else's comment or auction reveals nothing
 * that a GET does not; those keep 403 vs 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/app';
import { createUser, loginAs, userRowsWritten } from '../support/factories';
import type { ApiClient } from '../support/http';
import { imagesForm, pngBuffer } from '../support/images';
import { collectEvents, connectSocket, emitWithAck, sleep, type TestSocket } from '../support/sockets';
import { storedState } from '../support/security-routes';
import { createUnsoldAuction } from '../support/auctions';
import { appUnsubscribeTokens } from '../../server/features/email-alerts/email-alerts.worker';
import { ACTORS, auctionForm, auctionOf, buildWorld, commentOf, notificationOf, ratingFor, reportOn, saleFor, uploadImages, type ActorName, type World } from '../support/security-world';

let t: TestServer;
let w: World;

type Op = 'read' | 'create' | 'update' | 'delete' | 'bid' | 'upload' | 'watch';
type Expect = Record<ActorName, number>;
interface Cell {
  status: number;
  body: unknown;
}

interface Row {
  name: string;
  op: Op;
  /** Runs the request as `api` (acting as `actor`) on fresh objects. */
  run(api: ApiClient, actor: ActorName): Promise<Cell & { headers: Headers; text: string }>;
  expected: Expect;
  /** A write (refusals are checked for "nothing written" in the next describe). */
  write: boolean;
}

/** 200 for everyone (public reads). */
const all = (s: number): Expect => Object.fromEntries(ACTORS.map((a) => [a, s])) as Expect;
/** `ok` for every logged-in, active actor; 403 for the visitor and the blocked user. */
const active = (ok: number, over: Partial<Expect> = {}): Expect => ({ ...all(ok), anonymous: 403, blocked: 403, ...over });
const only = (ok: number, who: ActorName[], otherwise = 403): Expect =>
  Object.fromEntries(ACTORS.map((a) => [a, who.includes(a) ? ok : otherwise])) as Expect;

const sellerId = () => w.seller.user!.id;

/** A saved search of `userId` (issue 28), written straight into the database. */
async function savedSearchOf(userId: number, q: string): Promise<number> {
  const row = await t.ctx.db
    .insertInto('saved_searches')
    .values({ user_id: userId, q, q_text: q.toLowerCase(), category: null, min_price: null, max_price: null, city: null, city_norm: null, created_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
const uid = (a: ActorName) => w[a].user?.id ?? -1;

const ROWS: Row[] = [
  { name: 'GET /api/auction/{id}/', op: 'read', write: false, expected: all(200), run: async (api) => api.get(`/api/auction/${(await auctionOf(t, sellerId())).id}/`) },
  { name: 'GET /api/bids/{auctionId}/', op: 'read', write: false, expected: all(200), run: async (api) => api.get(`/api/bids/${(await auctionOf(t, sellerId())).id}/`) },
  // The contract as OpenAPI 3.1 (issue 29): public, the same document for everyone.
  { name: 'GET /api/openapi.json', op: 'read', write: false, expected: all(200), run: (api) => api.get('/api/openapi.json') },
  { name: 'GET /api/comments/{auctionId}/', op: 'read', write: false, expected: all(200), run: async (api) => api.get(`/api/comments/${(await auctionOf(t, sellerId())).id}/`) },
  { name: 'POST /api/auctionItems/', op: 'create', write: true, expected: active(201), run: (api) => api.post('/api/auctionItems/', auctionForm()) },
  {
    name: 'DELETE /api/auctionItems/delete/{id}/ (no bids)',
    op: 'delete',
    write: true,
    expected: only(204, ['seller', 'admin']),
    run: async (api) => api.delete(`/api/auctionItems/delete/${(await auctionOf(t, sellerId())).id}/`),
  },
  {
    name: 'DELETE /api/auctionItems/delete/{id}/ (with a bid)',
    op: 'delete',
    write: true,
    expected: { ...only(204, ['admin']), seller: 400 },
    run: async (api) => {
      const a = await auctionOf(t, sellerId());
      const res = await w.bidderB.api.post('/api/bids/', { auction_item_id: a.id, amount: 1010 });
      expect(res.status).toBe(201);
      return api.delete(`/api/auctionItems/delete/${a.id}/`);
    },
  },
  {
    name: 'POST /api/auction-items/{id}/images/',
    op: 'upload',
    write: true,
    expected: only(201, ['seller']),
    run: async (api) => {
      const a = await auctionOf(t, sellerId());
      return api.post(`/api/auction-items/${a.id}/images/`, imagesForm([{ name: 'a.png', data: await pngBuffer(16, 16), type: 'image/png' }]));
    },
  },
  {
    name: 'PUT /api/auction-items/{id}/images/order/',
    op: 'update',
    write: true,
    expected: only(200, ['seller']),
    run: async (api) => {
      const a = await auctionOf(t, sellerId());
      const ids = await uploadImages(w.seller.api, a.id, 2);
      return api.put(`/api/auction-items/${a.id}/images/order/`, { image_ids: [...ids].reverse() });
    },
  },
  {
    name: 'DELETE /api/auction-items/{id}/images/{imageId}/',
    op: 'delete',
    write: true,
    expected: only(204, ['seller']),
    run: async (api) => {
      const a = await auctionOf(t, sellerId());
      const [id] = await uploadImages(w.seller.api, a.id, 2);
      return api.delete(`/api/auction-items/${a.id}/images/${id}/`);
    },
  },
  {
    name: 'POST /api/bids/',
    op: 'bid',
    write: true,
    expected: active(201, { seller: 400 }),
    run: async (api) => api.post('/api/bids/', { auction_item_id: (await auctionOf(t, sellerId())).id, amount: 1010 }),
  },
  {
    name: 'PUT /api/auctions/{id}/auto-bid/',
    op: 'bid',
    write: true,
    expected: active(200, { seller: 400 }),
    run: async (api) => api.put(`/api/auctions/${(await auctionOf(t, sellerId())).id}/auto-bid/`, { max_amount: 5000 }),
  },
  {
    name: 'POST /api/auctions/{id}/buy-now/',
    op: 'bid',
    write: true,
    expected: active(201, { seller: 400 }),
    run: async (api) => api.post(`/api/auctions/${(await auctionOf(t, sellerId(), { buy_now_price: 5000 })).id}/buy-now/`),
  },
  {
    name: 'PATCH /api/auctions/{id}/',
    op: 'update',
    write: true,
    expected: only(200, ['seller']),
    run: async (api) => api.patch(`/api/auctions/${(await auctionOf(t, sellerId())).id}/`, { title: 'Izmenjen naslov' }),
  },
  {
    name: 'POST /api/auctions/{id}/relist/',
    op: 'create',
    write: true,
    expected: only(201, ['seller']),
    run: async (api) => api.post(`/api/auctions/${(await createUnsoldAuction(t.ctx, sellerId())).id}/relist/`, { auction_duration: 3 }),
  },
  {
    name: 'GET /api/auction/{id}/ (the reserve amount only to its seller)',
    op: 'read',
    write: false,
    expected: all(200),
    run: async (api, actor) => {
      const res = await api.get(`/api/auction/${(await auctionOf(t, sellerId(), { reserve_price: 5000 })).id}/`);
      if (actor === 'seller') expect(res.body).toMatchObject({ reserve_price: 5000, has_reserve: true });
      else expect(res.body).not.toHaveProperty('reserve_price');
      return res;
    },
  },
  {
    name: 'GET /api/auctions/{id}/auto-bid/ (only the caller\'s own maximum)',
    op: 'read',
    write: false,
    expected: active(200),
    run: async (api) => {
      const res = await api.get(`/api/auctions/${(await auctionOf(t, sellerId())).id}/auto-bid/`);
      if (res.status === 200) expect(res.body).toEqual({ max_amount: null });
      return res;
    },
  },
  {
    name: 'POST /api/comments/create/',
    op: 'create',
    write: true,
    expected: active(201),
    run: async (api) => api.post('/api/comments/create/', { auction_item_id: (await auctionOf(t, sellerId())).id, content: 'Pitanje?' }),
  },
  {
    name: "DELETE /api/comments/{id}/delete/ (bidder A's comment on the seller's auction)",
    op: 'delete',
    write: true,
    expected: only(204, ['bidderA', 'seller', 'admin']),
    run: async (api) => {
      const a = await auctionOf(t, sellerId());
      return api.delete(`/api/comments/${await commentOf(t, a.id, uid('bidderA'))}/delete/`);
    },
  },
  {
    name: 'GET /api/notifications/',
    op: 'read',
    write: false,
    expected: active(200),
    run: async (api, actor) => {
      await notificationOf(t, uid('bidderA'), null, 'Tajna poruka za A');
      const res = await api.get('/api/notifications/');
      if (res.status === 200) {
        const own = new Set(
          (await t.ctx.db.selectFrom('notifications').select('id').where('user_id', '=', uid(actor)).execute()).map((r) => r.id),
        );
        for (const n of res.body as { id: number }[]) expect(own.has(n.id), `${actor} sees notification ${n.id}`).toBe(true);
        if (actor !== 'bidderA') expect(JSON.stringify(res.body)).not.toContain('Tajna poruka za A');
      }
      return res;
    },
  },
  { name: 'GET /api/notifications/unread-count/', op: 'read', write: false, expected: active(200), run: (api) => api.get('/api/notifications/unread-count/') },
  {
    name: 'GET /api/notification-settings/ (own only)',
    op: 'read',
    write: false,
    expected: active(200),
    run: async (api, actor) => {
      // Only bidder A turned `won` off: nobody else's answer may show it.
      await t.ctx.db.insertInto('email_optouts').values({ user_id: uid('bidderA'), kind: 'won', created_at: new Date().toISOString() }).onConflict((oc) => oc.doNothing()).execute();
      const res = await api.get('/api/notification-settings/');
      if (res.status === 200) expect(res.body.email.won, actor).toBe(actor !== 'bidderA');
      return res;
    },
  },
  {
    name: 'PUT /api/notification-settings/ (own only)',
    op: 'update',
    write: true,
    expected: active(200),
    run: async (api, actor) => {
      const res = await api.put('/api/notification-settings/', { email: { report_resolved: false } });
      const owners = (await t.ctx.db.selectFrom('email_optouts').select('user_id').where('kind', '=', 'report_resolved').execute()).map((r) => r.user_id);
      if (res.status === 200) expect(owners, actor).toContain(uid(actor));
      for (const o of owners) expect(ACTORS.filter((a) => a !== 'anonymous' && a !== 'blocked').map(uid), `${actor}: someone else's setting`).toContain(o);
      return res;
    },
  },
  {
    name: "POST /api/unsubscribe/{token}/ (bidder B's token: whoever holds it, no session needed; only B's kind changes)",
    op: 'update',
    write: true,
    expected: all(200),
    run: async (api) => {
      const res = await api.request('POST', `/api/unsubscribe/${appUnsubscribeTokens(t.ctx).issue(uid('bidderB'), 'ending_soon')}/`, undefined, {
        raw: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      const owners = (await t.ctx.db.selectFrom('email_optouts').select('user_id').where('kind', '=', 'ending_soon').execute()).map((r) => r.user_id);
      expect(owners).toEqual([uid('bidderB')]);
      return res;
    },
  },
  {
    name: 'POST /api/saved-searches/ (saved as the caller)',
    op: 'create',
    write: true,
    expected: active(201),
    run: async (api, actor) => {
      const res = await api.post('/api/saved-searches/', { q: `matrica ${actor}` });
      if (res.status === 201) {
        const row = await t.ctx.db.selectFrom('saved_searches').select('user_id').where('id', '=', (res.body as { id: number }).id).executeTakeFirstOrThrow();
        expect(row.user_id, actor).toBe(uid(actor));
      }
      return res;
    },
  },
  {
    name: "GET /api/saved-searches/ (own only: bidder A's is nobody else's)",
    op: 'read',
    write: false,
    expected: active(200),
    run: async (api, actor) => {
      await savedSearchOf(uid('bidderA'), 'Tajna pretraga A');
      const res = await api.get('/api/saved-searches/');
      if (res.status === 200 && actor !== 'bidderA') expect(JSON.stringify(res.body), actor).not.toContain('Tajna pretraga A');
      return res;
    },
  },
  {
    name: "DELETE /api/saved-searches/{id}/ (bidder A's)",
    op: 'delete',
    write: true,
    expected: { ...only(204, ['bidderA'], 404), anonymous: 403, blocked: 403 },
    run: async (api) => api.delete(`/api/saved-searches/${await savedSearchOf(uid('bidderA'), 'Pretraga A')}/`),
  },
  {
    name: "GET /api/unsubscribe/{token}/ (a page; changes nothing)",
    op: 'read',
    write: false,
    expected: all(200),
    run: async (api) => api.get(`/api/unsubscribe/${appUnsubscribeTokens(t.ctx).issue(uid('bidderA'), 'saved_search')}/`),
  },
  {
    name: "PATCH /api/notifications/{id}/mark-as-read/ (bidder A's)",
    op: 'update',
    write: true,
    expected: { ...only(200, ['bidderA'], 404), anonymous: 403, blocked: 403 },
    run: async (api) => api.patch(`/api/notifications/${await notificationOf(t, uid('bidderA'))}/mark-as-read/`),
  },
  {
    name: 'GET /api/current_user_data/',
    op: 'read',
    write: false,
    expected: active(200),
    run: async (api, actor) => {
      const res = await api.get('/api/current_user_data/');
      if (res.status === 200) expect(JSON.stringify(res.body)).toContain(w[actor].user!.email);
      return res;
    },
  },
  { name: 'GET /api/username/', op: 'read', write: false, expected: active(200), run: (api) => api.get('/api/username/') },
  {
    name: 'PUT /api/update-profile/ (own profile only)',
    op: 'update',
    // A user blocked while logged in loses the session at once: 403 like a visitor.
    expected: active(200),
    write: true,
    run: async (api, actor) => {
      const before = await t.ctx.db.selectFrom('users').select(['id', 'city']).where('id', '!=', uid(actor)).orderBy('id').execute();
      const res = await api.put('/api/update-profile/', { first_name: actor, city: `Grad ${actor}` });
      const after = await t.ctx.db.selectFrom('users').select(['id', 'city']).where('id', '!=', uid(actor)).orderBy('id').execute();
      expect(after, 'nobody else changed').toEqual(before);
      return res;
    },
  },
  { name: 'GET /api/admin/users/', op: 'read', write: false, expected: only(200, ['admin']), run: (api) => api.get('/api/admin/users/') },
  {
    name: 'GET /api/admin/users/?q=&page= (search, paged)',
    op: 'read',
    write: false,
    expected: only(200, ['admin']),
    run: (api) => api.get(`/api/admin/users/?q=${encodeURIComponent(w.bidderA.user!.email.slice(0, 6))}&page=1&page_size=5`),
  },
  // The admin's filters of the all-auctions list: others get the public list, where `status` means nothing.
  {
    name: 'GET /api/all-auction-items/?status=bogus (admin filter)',
    op: 'read',
    write: false,
    expected: { ...all(200), admin: 400 },
    run: (api) => api.get('/api/all-auction-items/?status=bogus&page=1'),
  },
  // Bad parameters from anyone but an admin are refused before they are read (403, not 400).
  { name: 'GET /api/admin/users/?page=0', op: 'read', write: false, expected: only(400, ['admin']), run: (api) => api.get('/api/admin/users/?page=0') },
  {
    name: 'POST /api/admin/users/{id}/block/',
    op: 'update',
    write: true,
    expected: only(200, ['admin']),
    run: async (api) => api.post(`/api/admin/users/${(await createUser(t.ctx)).id}/block/`),
  },
  {
    name: 'POST /api/admin/users/{id}/unblock/',
    op: 'update',
    write: true,
    expected: only(200, ['admin']),
    run: async (api) => api.post(`/api/admin/users/${(await createUser(t.ctx, { blocked: true })).id}/unblock/`),
  },
  // Issue 29: GET /metrics answers only METRICS_TOKEN's bearer (set on this server); a session, even an admin's, opens nothing.
  { name: 'GET /metrics (session cookies, no bearer token)', op: 'read', write: false, expected: all(404), run: (api) => api.get('/metrics') },
  {
    name: 'GET /metrics (a wrong bearer token)',
    op: 'read',
    write: false,
    expected: all(404),
    run: (api) => api.get('/metrics', { headers: { authorization: 'Bearer not-the-metrics-token-000' } }),
  },
  // Issue 23: sales, ratings, member profiles.
  {
    name: 'GET /api/sales/ (own sales only)',
    op: 'read',
    write: false,
    expected: active(200),
    run: async (api, actor) => {
      const res = await api.get('/api/sales/?page_size=100');
      if (res.status === 200) {
        for (const s of res.body.results) {
          const a = await t.ctx.db.selectFrom('auctions').select(['seller_id', 'winner_id']).where('id', '=', s.auction_id).executeTakeFirstOrThrow();
          expect([a.seller_id, a.winner_id], `${actor} got sale ${s.auction_id}`).toContain(uid(actor));
          expect(s.counterpart.id).not.toBe(uid(actor));
        }
      }
      return res;
    },
  },
  {
    name: "POST /api/sales/{id}/rating/ (the seller's sale to bidder A: its two parties only)",
    op: 'create',
    write: true,
    expected: only(201, ['seller', 'bidderA']),
    run: async (api) => api.post(`/api/sales/${(await saleFor(t, sellerId(), uid('bidderA'))).id}/rating/`, { value: 'positive', comment: 'Sve u redu.' }),
  },
  {
    name: "POST /api/ratings/{id}/reply/ (bidder A's rating of the seller: the rated member only)",
    op: 'create',
    write: true,
    expected: only(201, ['seller']),
    run: async (api) => api.post(`/api/ratings/${await ratingFor(t, sellerId(), uid('bidderA'))}/reply/`, { content: 'Hvala na kupovini.' }),
  },
  ...(['', 'ratings/', 'auctions/'] as const).map(
    (sub): Row => ({
      name: `GET /api/members/{id}/${sub} (public; never contact data)`,
      op: 'read',
      write: false,
      expected: all(200),
      run: async (api) => {
        const res = await api.get(`/api/members/${sellerId()}/${sub}`);
        expect(res.text).not.toContain(w.seller.user!.email);
        return res;
      },
    }),
  ),
  {
    name: 'GET /api/members/{id}/ (a blocked member: 404 for everyone)',
    op: 'read',
    write: false,
    expected: all(404),
    run: (api) => api.get(`/api/members/${uid('blocked')}/`),
  },
  // Issue 24: reports (logged in and verified), the moderation queue and the audit log (admins only).
  {
    name: "POST /api/reports/ (other seller's auction: everyone active but its owner)",
    op: 'create',
    write: true,
    expected: active(201, { otherSeller: 400 }),
    run: async (api) => api.post('/api/reports/', { target_type: 'auction', target_id: (await auctionOf(t, uid('otherSeller'))).id, reason: 'fraud' }),
  },
  { name: 'GET /api/admin/reports/', op: 'read', write: false, expected: only(200, ['admin']), run: (api) => api.get('/api/admin/reports/?status=open') },
  {
    name: 'POST /api/admin/reports/{id}/resolve/ (dismiss)',
    op: 'update',
    write: true,
    expected: only(200, ['admin']),
    run: async (api) => api.post(`/api/admin/reports/${await reportOn(t, uid('otherSeller'), uid('bidderA'))}/resolve/`, { action: 'dismiss' }),
  },
  { name: 'GET /api/admin/audit-log/', op: 'read', write: false, expected: only(200, ['admin']), run: (api) => api.get('/api/admin/audit-log/') },
  // Issue 24: the member block list is the caller's own; nobody reads or changes another member's.
  {
    name: 'GET /api/blocked-members/ (own list only)',
    op: 'read',
    write: false,
    expected: active(200),
    run: async (api, actor) => {
      const victim = await createUser(t.ctx);
      await t.ctx.db.insertInto('member_blocks').values({ blocker_id: sellerId(), blocked_id: victim.id, created_at: new Date().toISOString() }).execute();
      const res = await api.get('/api/blocked-members/?page_size=100');
      if (res.status === 200) {
        const ids = (res.body.results as { id: number }[]).map((r) => r.id);
        expect(ids.includes(victim.id), `${actor} sees the seller's block list`).toBe(actor === 'seller');
      }
      return res;
    },
  },
  { name: 'POST /api/blocked-members/', op: 'create', write: true, expected: active(201), run: async (api) => api.post('/api/blocked-members/', { user_id: (await createUser(t.ctx)).id }) },
  {
    name: "DELETE /api/blocked-members/{id}/ (ends only the caller's own block)",
    op: 'delete',
    write: true,
    expected: active(204),
    run: async (api, actor) => {
      const victim = await createUser(t.ctx);
      await t.ctx.db.insertInto('member_blocks').values({ blocker_id: sellerId(), blocked_id: victim.id, created_at: new Date().toISOString() }).execute();
      const res = await api.delete(`/api/blocked-members/${victim.id}/`);
      const left = await t.ctx.db.selectFrom('member_blocks').select('blocked_id').where('blocker_id', '=', sellerId()).where('blocked_id', '=', victim.id).execute();
      expect(left.length, `${actor} ended the seller's block`).toBe(actor === 'seller' ? 0 : 1);
      return res;
    },
  },
  ...(['/api/my-auctions/', '/api/auctionItems/', '/api/all-my-biddings/'] as const).map(
    (path): Row => ({
      name: `GET ${path} (own only)`,
      op: 'read',
      write: false,
      expected: active(200),
      run: async (api, actor) => {
        const res = await api.get(path);
        if (res.status === 200) {
          const ids = (res.body as { id: number }[]).map((c) => c.id);
          const mine =
            path === '/api/all-my-biddings/'
              ? (await t.ctx.db.selectFrom('bids').select('auction_id').where('bidder_id', '=', uid(actor)).execute()).map((r) => r.auction_id)
              : (await t.ctx.db.selectFrom('auctions').select('id').where('seller_id', '=', uid(actor)).execute()).map((r) => r.id);
          for (const id of ids) expect(mine, `${actor} got auction ${id} from ${path}`).toContain(id);
        }
        return res;
      },
    }),
  ),
];

/** GET /metrics is on for this server: its rows check that no actor reads it without the token. */
const METRICS_TOKEN = 'authz-matrix-metrics-token-0123';

beforeAll(async () => {
  t = await startTestServer({ METRICS_TOKEN });
  w = await buildWorld(t);
  // The blocked user's session ended at blocking; with a fresh visitor token their requests get past CSRF
  // and reach the authorisation checks this matrix is about.
  w.blocked.api.cookies.delete('csrftoken');
  await w.blocked.api.ensureCsrf();
  // Give every list something to leak: a bid of B on the seller's auction, an own auction of otherSeller.
  const a = await auctionOf(t, sellerId());
  expect((await w.bidderB.api.post('/api/bids/', { auction_item_id: a.id, amount: 1100 })).status).toBe(201);
  await auctionOf(t, uid('otherSeller'));
  await saleFor(t, sellerId(), uid('bidderB'));
});
afterAll(() => t?.close());

describe('authorisation matrix: actors × object routes', () => {
  it('covers every operation kind', () => {
    expect(new Set(ROWS.map((r) => r.op))).toEqual(new Set(['read', 'create', 'update', 'delete', 'bid', 'upload']));
  });

  it('GET /metrics is on here: the token itself opens it (so its 404 rows mean refused, not absent)', async () => {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
  });

  for (const row of ROWS) {
    it(`${row.op.padEnd(6)} ${row.name}`, async () => {
      const got: Partial<Expect> = {};
      for (const actor of ACTORS) {
        const res = await row.run(w[actor].api, actor);
        got[actor] = res.status;
        if (res.status >= 400) expect(res.headers.get('content-type'), `${actor}: JSON error`).toMatch(/application\/json/);
      }
      expect(got).toEqual(row.expected);
    });
  }
});

describe('refusals write nothing', () => {
  it('every refused write by every actor leaves the stored state as it was', async () => {
    const a = await auctionOf(t, sellerId());
    const [imageId] = await uploadImages(w.seller.api, a.id, 2);
    const commentId = await commentOf(t, a.id, uid('bidderA'));
    const notificationId = await notificationOf(t, uid('bidderA'));
    const victim = await createUser(t.ctx);
    const sale = await saleFor(t, sellerId(), uid('bidderA'));
    const ratingId = await ratingFor(t, sellerId(), uid('bidderA'));
    const reportId = await reportOn(t, uid('otherSeller'), uid('bidderA'));
    const png = await pngBuffer(16, 16);
    const attempts: { who: ActorName[]; send: (api: ApiClient) => ReturnType<ApiClient['get']> }[] = [
      { who: ['anonymous', 'blocked', 'bidderA', 'bidderB', 'otherSeller'], send: (api) => api.delete(`/api/auctionItems/delete/${a.id}/`) },
      { who: ['anonymous', 'blocked', 'bidderA', 'bidderB', 'otherSeller', 'admin'], send: (api) => api.post(`/api/auction-items/${a.id}/images/`, imagesForm([{ name: 'x.png', data: png }])) },
      { who: ['anonymous', 'blocked', 'bidderA', 'bidderB', 'otherSeller', 'admin'], send: (api) => api.put(`/api/auction-items/${a.id}/images/order/`, { image_ids: [imageId] }) },
      { who: ['anonymous', 'blocked', 'bidderA', 'bidderB', 'otherSeller', 'admin'], send: (api) => api.delete(`/api/auction-items/${a.id}/images/${imageId}/`) },
      { who: ['anonymous', 'blocked', 'seller'], send: (api) => api.post('/api/bids/', { auction_item_id: a.id, amount: 5000 }) },
      { who: ['anonymous', 'blocked'], send: (api) => api.post('/api/comments/create/', { auction_item_id: a.id, content: 'x' }) },
      { who: ['anonymous', 'blocked'], send: (api) => api.put('/api/notification-settings/', { email: { outbid: false } }) },
      { who: ['anonymous', 'blocked', 'bidderB', 'otherSeller'], send: (api) => api.delete(`/api/comments/${commentId}/delete/`) },
      { who: ['anonymous', 'blocked', 'bidderB', 'seller', 'otherSeller', 'admin'], send: (api) => api.patch(`/api/notifications/${notificationId}/mark-as-read/`) },
      { who: ['anonymous', 'blocked', 'bidderA', 'bidderB', 'seller', 'otherSeller'], send: (api) => api.post(`/api/admin/users/${victim.id}/block/`) },
      { who: ['anonymous', 'blocked'], send: (api) => api.put('/api/update-profile/', { first_name: 'Haker', city: 'X' }) },
      { who: ['anonymous', 'blocked'], send: (api) => api.post('/api/auctionItems/', auctionForm()) },
      { who: ['anonymous', 'blocked', 'bidderB', 'otherSeller', 'admin'], send: (api) => api.post(`/api/sales/${sale.id}/rating/`, { value: 'positive' }) },
      { who: ['anonymous', 'blocked', 'bidderA', 'bidderB', 'otherSeller', 'admin'], send: (api) => api.post(`/api/ratings/${ratingId}/reply/`, { content: 'Odgovor' }) },
      { who: ['anonymous', 'blocked', 'otherSeller'], send: (api) => api.post('/api/reports/', { target_type: 'auction', target_id: a.id, reason: 'other' }) },
      { who: ['anonymous', 'blocked', 'bidderA', 'bidderB', 'seller', 'otherSeller'], send: (api) => api.post(`/api/admin/reports/${reportId}/resolve/`, { action: 'block_owner' }) },
    ];
    const before = await storedState(t);
    let n = 0;
    for (const at of attempts) {
      for (const who of at.who) {
        const res = await at.send(w[who].api);
        expect(res.status, `${who}: ${res.text}`).toBeGreaterThanOrEqual(400);
        n += 1;
      }
    }
    expect(n).toBe(70);
    expect(await storedState(t) === before, 'a refused request wrote something').toBe(true);
  });

  it('a user whose row is blocked while a session is still alive gets 403 on every write (defence in depth)', async () => {
    const u = await createUser(t.ctx);
    const api = await loginAs(t.url, u);
    const a = await auctionOf(t, sellerId());
    // A sale of the seller to them, and a rating they got as a seller: both theirs to rate and answer, until the block.
    const sale = await saleFor(t, sellerId(), u.id);
    const ratingId = await ratingFor(t, u.id, uid('bidderA'));
    await t.ctx.db.updateTable('users').set({ blocked_at: new Date().toISOString() }).where('id', '=', u.id).execute();
    await userRowsWritten(t.ctx);
    const before = await storedState(t);
    for (const res of [
      await api.post('/api/bids/', { auction_item_id: a.id, amount: 2000 }),
      await api.post('/api/comments/create/', { auction_item_id: a.id, content: 'x' }),
      await api.post('/api/auctionItems/', auctionForm()),
      await api.put('/api/update-profile/', { first_name: 'X' }),
      await api.get('/api/notifications/'),
      await api.post(`/api/sales/${sale.id}/rating/`, { value: 'positive' }),
      await api.post(`/api/ratings/${ratingId}/reply/`, { content: 'Odgovor' }),
    ])
      expect(res.status).toBe(403);
    expect(await storedState(t) === before).toBe(true);
  });
});

describe('no existence oracle', () => {
  it("someone else's notification and an unknown one answer alike (status and body)", async () => {
    const others = await notificationOf(t, uid('bidderA'));
    const a = await w.bidderB.api.patch(`/api/notifications/${others}/mark-as-read/`);
    const b = await w.bidderB.api.patch('/api/notifications/99999999/mark-as-read/');
    expect(a.status).toBe(404);
    expect({ status: a.status, body: a.body }).toEqual({ status: b.status, body: b.body });
    const row = await t.ctx.db.selectFrom('notifications').select('is_read').where('id', '=', others).executeTakeFirstOrThrow();
    expect(row.is_read).toBe(0);
  });
});

describe('authorisation matrix: socket events', () => {
  const sockets = {} as Record<ActorName, TestSocket>;

  beforeAll(async () => {
    for (const a of ACTORS) sockets[a] = await connectSocket(t.url, { cookie: w[a].api.cookieHeader });
  });
  afterAll(() => {
    for (const s of Object.values(sockets)) s?.close();
  });

  it('watch: every actor may join a public auction room; an unknown id is refused alike for all', async () => {
    const a = await auctionOf(t, sellerId());
    for (const actor of ACTORS) {
      const ack = await emitWithAck(sockets[actor], 'auction:join', { auction_id: a.id });
      expect(ack.ok, actor).toBe(true);
      const missing = await emitWithAck(sockets[actor], 'auction:join', { auction_id: 99999999 });
      expect(missing.ok, actor).toBe(false);
    }
  });

  it('user room delivery: a notification reaches only its owner (not the blocked user, not anyone else)', async () => {
    const seen = Object.fromEntries(ACTORS.map((a) => [a, collectEvents(sockets[a], 'notification:created')])) as Record<ActorName, unknown[]>;
    const counts = Object.fromEntries(ACTORS.map((a) => [a, collectEvents(sockets[a], 'notifications:count')])) as Record<ActorName, unknown[]>;
    const a = await auctionOf(t, sellerId());
    expect((await w.bidderB.api.post('/api/comments/create/', { auction_item_id: a.id, content: 'Ima li garancije?' })).status).toBe(201);
    const deadline = Date.now() + 2000;
    while (!seen.seller.length && Date.now() < deadline) await sleep(25);
    await sleep(150);
    const got = Object.fromEntries(ACTORS.map((x) => [x, seen[x].length])) as Record<ActorName, number>;
    expect(got).toEqual({ ...only(1, ['seller'], 0) });
    for (const x of ACTORS) if (x !== 'seller') expect(counts[x].length, x).toBe(0);
  });
});
