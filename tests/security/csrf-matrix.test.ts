/**
 * CSRF matrix (issue 7 §1, ASVS 5.0 V3.5): every state-changing route the router declares is sent
 * without the token, with another session's token, and from a foreign Origin → 403 JSON, and nothing
 * stored changes; the same request with the right token is accepted (the control that proves the
 * request would have done something). The session and CSRF basics live in tests/server/accounts/security.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/app';
import { createUser, loginAs } from '../support/factories';
import { eventually } from '../support/marketplace';
import { ApiClient } from '../support/http';
import { imagesForm, pngBuffer } from '../support/images';
import { declaredRoutes, routeMatcher, STATE_CHANGING, storedState, rowCounts } from '../support/security-routes';
import { auctionForm, auctionOf, buildWorld, commentOf, notificationOf, ratingFor, reportOn, saleFor, uploadImages, type World } from '../support/security-world';
import { createUnsoldAuction } from '../support/auctions';
import { appUnsubscribeTokens } from '../../server/features/email-alerts/email-alerts.worker';

let t: TestServer;
let w: World;
let stranger: ApiClient;

interface Req {
  api: ApiClient;
  path: string;
  body?: unknown;
}

interface Entry {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  route: string;
  /** Builds a fresh request (fresh objects) that would succeed with a valid token. */
  make(): Promise<Req>;
  /** Status of the control request (with the token); default 2xx. */
  control?: number;
  /**
   * The control sends a mail after its answer (tokens are written first): wait for it, so those writes
   * land before the next test's "nothing written" comparison, not during it.
   */
  mails?: true;
}

const freshLogin = async () => loginAs(t.url, await createUser(t.ctx));
const freshAnon = async () => {
  const api = new ApiClient(t.url);
  await api.ensureCsrf();
  return api;
};

const ENTRIES: Entry[] = [
  {
    method: 'POST',
    route: '/api/user/register/',
    make: async () => ({
      api: await freshAnon(),
      path: '/api/user/register/',
      body: { first_name: 'Nov', email: `nov${Math.random().toString(36).slice(2)}@example.com`, phone_number: '0641234567', password: 'Lozinka123', city: 'Niš' },
    }),
  },
  {
    method: 'POST',
    route: '/api/verify/resend/',
    make: async () => ({ api: await freshAnon(), path: '/api/verify/resend/', body: { email: (await createUser(t.ctx, { verified: false })).email } }),
    mails: true,
  },
  {
    method: 'POST',
    route: '/api/login/',
    make: async () => ({ api: await freshAnon(), path: '/api/login/', body: { email: w.bidderA.user!.email, password: w.bidderA.user!.password } }),
  },
  { method: 'POST', route: '/api/logout/', make: async () => ({ api: await freshLogin(), path: '/api/logout/' }) },
  {
    method: 'PUT',
    route: '/api/update-profile/',
    make: async () => ({ api: w.bidderA.api, path: '/api/update-profile/', body: { first_name: `Ime${Math.random().toString(36).slice(2, 7)}`, city: 'Subotica' } }),
  },
  {
    method: 'POST',
    route: '/api/change-password/',
    make: async () => ({ api: await freshLogin(), path: '/api/change-password/', body: { old_password: 'Lozinka123', new_password: 'NovaLozinka456' } }),
  },
  {
    method: 'POST',
    route: '/api/password-reset/',
    make: async () => ({ api: await freshAnon(), path: '/api/password-reset/', body: { email: w.bidderB.user!.email } }),
    mails: true,
  },
  {
    method: 'POST',
    route: '/api/password-reset/confirm/',
    // An unknown token: the control proves the request passes CSRF and reaches the handler (400), the
    // reset itself is covered in tests/server/accounts/passwords.test.ts.
    make: async () => ({ api: await freshAnon(), path: '/api/password-reset/confirm/', body: { token: 'x'.repeat(40), password: 'NovaLozinka456' } }),
    control: 400,
  },
  // Google is not configured here: the control reaches the route's 503; CSRF is checked before it.
  { method: 'POST', route: '/api/auth/google/', make: async () => ({ api: await freshAnon(), path: '/api/auth/google/', body: { id_token: 'a.b.c' } }), control: 503 },
  {
    method: 'POST',
    route: '/api/admin/users/:id/block/',
    make: async () => ({ api: w.admin.api, path: `/api/admin/users/${(await createUser(t.ctx)).id}/block/` }),
  },
  {
    method: 'POST',
    route: '/api/admin/users/:id/unblock/',
    make: async () => ({ api: w.admin.api, path: `/api/admin/users/${(await createUser(t.ctx, { blocked: true })).id}/unblock/` }),
  },
  { method: 'POST', route: '/api/auctionItems/', make: async () => ({ api: w.seller.api, path: '/api/auctionItems/', body: auctionForm() }) },
  {
    method: 'DELETE',
    route: '/api/auctionItems/delete/:id/',
    make: async () => ({ api: w.seller.api, path: `/api/auctionItems/delete/${(await auctionOf(t, w.seller.user!.id)).id}/` }),
  },
  {
    method: 'POST',
    route: '/api/auction-items/:id/images/',
    make: async () => ({
      api: w.seller.api,
      path: `/api/auction-items/${(await auctionOf(t, w.seller.user!.id)).id}/images/`,
      body: imagesForm([{ name: 'a.png', data: await pngBuffer(16, 16), type: 'image/png' }]),
    }),
  },
  {
    method: 'PUT',
    route: '/api/auction-items/:id/images/order/',
    make: async () => {
      const a = await auctionOf(t, w.seller.user!.id);
      const ids = await uploadImages(w.seller.api, a.id, 2);
      return { api: w.seller.api, path: `/api/auction-items/${a.id}/images/order/`, body: { image_ids: [...ids].reverse() } };
    },
  },
  {
    method: 'DELETE',
    route: '/api/auction-items/:id/images/:imageId/',
    make: async () => {
      const a = await auctionOf(t, w.seller.user!.id);
      const [id] = await uploadImages(w.seller.api, a.id, 2);
      return { api: w.seller.api, path: `/api/auction-items/${a.id}/images/${id}/` };
    },
  },
  {
    method: 'POST',
    route: '/api/bids/',
    make: async () => ({ api: w.bidderA.api, path: '/api/bids/', body: { auction_item_id: (await auctionOf(t, w.seller.user!.id)).id, amount: 1010 } }),
  },
  {
    method: 'PUT',
    route: '/api/auctions/:id/auto-bid/',
    make: async () => {
      const a = await auctionOf(t, w.seller.user!.id);
      return { api: w.bidderA.api, path: `/api/auctions/${a.id}/auto-bid/`, body: { max_amount: 5000 } };
    },
  },
  {
    method: 'POST',
    route: '/api/auctions/:id/buy-now/',
    make: async () => {
      const a = await auctionOf(t, w.seller.user!.id, { buy_now_price: 5000 });
      return { api: w.bidderA.api, path: `/api/auctions/${a.id}/buy-now/` };
    },
  },
  {
    method: 'PATCH',
    route: '/api/auctions/:id/',
    make: async () => ({ api: w.seller.api, path: `/api/auctions/${(await auctionOf(t, w.seller.user!.id)).id}/`, body: { title: 'Izmenjen naslov' } }),
  },
  {
    method: 'POST',
    route: '/api/auctions/:id/relist/',
    make: async () => ({ api: w.seller.api, path: `/api/auctions/${(await createUnsoldAuction(t.ctx, w.seller.user!.id)).id}/relist/`, body: { auction_duration: 3 } }),
  },
  // A read made as POST (the contract's name lookup): it writes nothing either way, but is still guarded.
  { method: 'POST', route: '/api/users/', make: async () => ({ api: w.bidderA.api, path: '/api/users/', body: { ids: [w.seller.user!.id] } }) },
  {
    method: 'POST',
    route: '/api/comments/create/',
    make: async () => ({ api: w.bidderA.api, path: '/api/comments/create/', body: { auction_item_id: (await auctionOf(t, w.seller.user!.id)).id, content: 'Da li je ispravan?' } }),
  },
  {
    method: 'DELETE',
    route: '/api/comments/:commentId/delete/',
    make: async () => {
      const a = await auctionOf(t, w.seller.user!.id);
      return { api: w.bidderA.api, path: `/api/comments/${await commentOf(t, a.id, w.bidderA.user!.id)}/delete/` };
    },
  },
  {
    method: 'POST',
    route: '/api/watchlist/',
    make: async () => ({ api: w.bidderA.api, path: '/api/watchlist/', body: { auction_item_id: (await auctionOf(t, w.seller.user!.id)).id } }),
  },
  {
    method: 'DELETE',
    route: '/api/watchlist/:auctionId/',
    make: async () => {
      const a = await auctionOf(t, w.seller.user!.id);
      await t.ctx.db.insertInto('watchlist').values({ user_id: w.bidderA.user!.id, auction_id: a.id, created_at: new Date().toISOString() }).execute();
      return { api: w.bidderA.api, path: `/api/watchlist/${a.id}/` };
    },
  },
  {
    method: 'POST',
    route: '/api/sales/:auctionId/rating/',
    make: async () => ({
      api: w.bidderA.api,
      path: `/api/sales/${(await saleFor(t, w.seller.user!.id, w.bidderA.user!.id)).id}/rating/`,
      body: { value: 'positive', comment: 'Sve po dogovoru.' },
    }),
  },
  {
    method: 'POST',
    route: '/api/ratings/:id/reply/',
    make: async () => ({
      api: w.seller.api,
      path: `/api/ratings/${await ratingFor(t, w.seller.user!.id, w.bidderA.user!.id)}/reply/`,
      body: { content: 'Hvala na kupovini.' },
    }),
  },
  // Issue 24: the member block list.
  { method: 'POST', route: '/api/blocked-members/', make: async () => ({ api: w.seller.api, path: '/api/blocked-members/', body: { user_id: (await createUser(t.ctx)).id } }) },
  {
    method: 'DELETE',
    route: '/api/blocked-members/:userId/',
    make: async () => {
      const u = await createUser(t.ctx);
      await t.ctx.db.insertInto('member_blocks').values({ blocker_id: w.seller.user!.id, blocked_id: u.id, created_at: new Date().toISOString() }).execute();
      return { api: w.seller.api, path: `/api/blocked-members/${u.id}/` };
    },
  },
  {
    method: 'POST',
    route: '/api/reports/',
    make: async () => ({ api: w.bidderA.api, path: '/api/reports/', body: { target_type: 'auction', target_id: (await auctionOf(t, w.seller.user!.id)).id, reason: 'spam' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/reports/:id/resolve/',
    make: async () => ({ api: w.admin.api, path: `/api/admin/reports/${await reportOn(t, w.seller.user!.id, w.bidderB.user!.id)}/resolve/`, body: { action: 'dismiss' } }),
  },
  {
    method: 'PATCH',
    route: '/api/notifications/:id/mark-as-read/',
    make: async () => ({ api: w.bidderA.api, path: `/api/notifications/${await notificationOf(t, w.bidderA.user!.id)}/mark-as-read/` }),
  },
  { method: 'POST', route: '/api/saved-searches/', make: async () => ({ api: w.bidderA.api, path: '/api/saved-searches/', body: { q: 'csrf' } }) },
  {
    method: 'DELETE',
    route: '/api/saved-searches/:id/',
    make: async () => {
      const row = await t.ctx.db
        .insertInto('saved_searches')
        .values({ user_id: w.bidderA.user!.id, q: 'csrf', q_text: 'csrf', created_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { api: w.bidderA.api, path: `/api/saved-searches/${row.id}/` };
    },
  },
  {
    method: 'PUT',
    route: '/api/notification-settings/',
    make: async () => ({ api: await freshLogin(), path: '/api/notification-settings/', body: { email: { outbid: false } } }),
  },
];

/**
 * The one route exempt from CSRF tokens and the Origin check (docs/security.md): RFC 8058's one-click
 * unsubscribe, which a mail client POSTs without a session; its signed token is its whole authorisation.
 */
const EXEMPT = ['POST /api/unsubscribe/:token/'];

function send(req: Req, method: string, opts: Parameters<ApiClient['request']>[3]) {
  return req.api.request(method, req.path, req.body, opts);
}

beforeAll(async () => {
  t = await startTestServer();
  w = await buildWorld(t);
  stranger = await freshAnon();
});
afterAll(() => t?.close());

describe('CSRF matrix over every state-changing route', () => {
  it('the table covers exactly the state-changing routes the router declares', () => {
    const declared = declaredRoutes(t.server.app)
      .filter((r) => STATE_CHANGING.has(r.method))
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    expect(declared.length).toBeGreaterThan(15);
    expect([...ENTRIES.map((e) => `${e.method} ${e.route}`), ...EXEMPT].sort()).toEqual(declared);
    for (const e of ENTRIES) expect(e.route).toMatch(/^\/api\//);
  });

  const variants: { name: string; opts: () => Parameters<ApiClient['request']>[3] }[] = [
    { name: 'without the token', opts: () => ({ csrf: false }) },
    { name: "with another session's token", opts: () => ({ csrf: stranger.csrfToken()! }) },
    { name: 'from a foreign Origin (valid token)', opts: () => ({ headers: { origin: 'https://zli-sajt.example' } }) },
    { name: 'from a look-alike Origin (valid token)', opts: () => ({ headers: { origin: `${t.url}.zli-sajt.example` } }) },
  ];

  for (const e of ENTRIES) {
    it(`${e.method} ${e.route}: 403 and nothing written for each forgery; accepted with the token`, async () => {
      for (const v of variants) {
        const req = await e.make();
        expect(routeMatcher(e.route).test(req.path)).toBe(true);
        const before = await storedState(t);
        const counts = await rowCounts(t);
        const res = await send(req, e.method, v.opts());
        expect(res.status, `${v.name}: ${res.text}`).toBe(403);
        expect(res.headers.get('content-type')).toMatch(/application\/json/);
        expect(typeof res.body.detail).toBe('string');
        expect(await rowCounts(t), v.name).toEqual(counts);
        expect(await storedState(t) === before, `${v.name}: something was written`).toBe(true);
      }
      const req = await e.make();
      const mailsBefore = t.outbox().length;
      const res = await send(req, e.method, {});
      if (e.control) expect(res.status, res.text).toBe(e.control);
      else expect(res.status, res.text).toBeGreaterThanOrEqual(200);
      if (!e.control) expect(res.status, res.text).toBeLessThan(300);
      if (e.mails) await eventually(() => t.outbox().length > mailsBefore);
    });
  }
});

describe('POST /api/unsubscribe/{token}/: the one exempt route (RFC 8058)', () => {
  const oneClick = { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } };

  it('is accepted without a token, with another session\'s token, from a foreign Origin and without any Origin', async () => {
    const variants: Parameters<ApiClient['request']>[3][] = [
      { ...oneClick, csrf: false },
      { ...oneClick, csrf: stranger.csrfToken()! },
      { ...oneClick, headers: { ...oneClick.headers, origin: 'https://zli-sajt.example' } },
    ];
    for (const v of variants) {
      const user = await createUser(t.ctx);
      const path = `/api/unsubscribe/${appUnsubscribeTokens(t.ctx).issue(user.id, 'won')}/`;
      const res = await new ApiClient(t.url, null).request('POST', path, undefined, v);
      expect(res.status, res.text).toBe(200);
      const off = await t.ctx.db.selectFrom('email_optouts').select('kind').where('user_id', '=', user.id).execute();
      expect(off).toEqual([{ kind: 'won' }]);
    }
  });

  it('a forged token is refused (400) and nothing is written', async () => {
    const user = await createUser(t.ctx);
    const real = appUnsubscribeTokens(t.ctx).issue(user.id, 'won');
    const before = await storedState(t);
    const res = await new ApiClient(t.url, null).request('POST', `/api/unsubscribe/${real.replace('.won.', '.outbid.')}/`, undefined, { ...oneClick, csrf: false });
    expect(res.status).toBe(400);
    expect(await storedState(t) === before).toBe(true);
  });
});
