/**
 * The bid routes' session fast path (server/http/session-fast-path.ts; SQLite, and PostgreSQL under
 * scripts/test-pg.mjs): a warm bid no longer verifies its cookie's signature again, yet every session, user and
 * cookie the bidder sees is what express-session and passport gave before.
 */
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser, loginAs } from '../../support/factories';
import { ApiClient } from '../../support/http';
import { auctionRow, bid } from '../../support/marketplace';
import { sameBrowserOn } from '../../support/session-cache';
import { recordStatementsOf, type StatementLog } from '../../support/statements';

const DAY = 24 * 3600 * 1000;
const TTL = 14 * DAY;

let t: TestServer;
let log: StatementLog | undefined;
beforeAll(async () => {
  t = await startTestServer();
});
afterEach(() => {
  vi.restoreAllMocks();
  log?.stop();
  log = undefined;
});
afterAll(() => t?.close());

/** A verified member logged in, and an open auction at 1,000 of another seller. */
async function bidderAndAuction() {
  const user = await createUser(t.ctx);
  const api = await loginAs(t.url, user);
  const seller = await createUser(t.ctx);
  const auction = await createAuction(t.ctx, seller.id, { starting_price: 1000 });
  return { user, api, auction };
}

/** The same browser with its `sessionid` cookie replaced. */
function withSessionCookie(api: ApiClient, value: string): ApiClient {
  const other = sameBrowserOn(api, t);
  other.cookies.set('sessionid', value);
  return other;
}

describe('a bid through the session fast path', () => {
  it('a warm refused bid computes no signature, sets no cookie, touches no session row, and is refused with the price as before', async () => {
    const { api, auction } = await bidderAndAuction();
    expect((await bid(api, auction.id, 1)).status).toBe(400);

    const hmac = vi.spyOn(crypto, 'createHmac');
    log = recordStatementsOf(t.ctx, { sessions: true });
    const refused = await bid(api, auction.id, 1);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ current_price: 1000 });
    expect(refused.headers.getSetCookie()).toEqual([]);
    expect(hmac).not.toHaveBeenCalled();
    expect(log.sources.filter((sql) => /\bsessions\b|from "users" where "id" =/i.test(sql))).toEqual([]);
  });

  it('serves the bidder as themselves: the accepted bid is theirs', async () => {
    const { user, api, auction } = await bidderAndAuction();
    const placed = await bid(api, auction.id, 1010);
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ bidder: user.id, bidder_name: expect.stringContaining(user.first_name), amount: 1010 });
  });

  it('refuses a tampered cookie even after the genuine one was verified', async () => {
    const { api, auction } = await bidderAndAuction();
    expect((await bid(api, auction.id, 1)).status).toBe(400);
    const genuine = api.cookies.get('sessionid')!;
    const decoded = decodeURIComponent(genuine);
    const [sid, sig] = [decoded.slice(2, decoded.lastIndexOf('.')), decoded.slice(decoded.lastIndexOf('.') + 1)];
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    for (const forged of [`s:${sid}.${flip(sig)}`, `s:${flip(sid)}.${sig}`, sid]) {
      const res = await bid(withSessionCookie(api, encodeURIComponent(forged)), auction.id, 1010);
      expect(res.status, forged).toBe(403);
    }
    expect((await auctionRow(t, auction.id)).bid_count).toBe(0);
    expect((await bid(api, auction.id, 1010)).status).toBe(201);
  });

  it('after a logout the same cookie bids as nobody on the very next request', async () => {
    const { api, auction } = await bidderAndAuction();
    expect((await bid(api, auction.id, 1)).status).toBe(400);
    const kept = sameBrowserOn(api, t);
    expect((await api.post('/api/logout/', {})).status).toBe(200);
    const res = await bid(kept, auction.id, 1010);
    expect(res.status).toBe(403);
    expect((await auctionRow(t, auction.id)).bid_count).toBe(0);
  });

  it("a visitor's session (a CSRF token, no user) is refused as not logged in, not as a CSRF failure", async () => {
    const seller = await createUser(t.ctx);
    const auction = await createAuction(t.ctx, seller.id, { starting_price: 1000 });
    const visitor = new ApiClient(t.url);
    expect((await visitor.get('/api/csrf/')).status).toBe(200);
    const res = await bid(visitor, auction.id, 1010);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'not_authenticated' });
  });

  it('renews a stored expiry older than a minute to 14 days from the bid, as every request does', async () => {
    const { user, api, auction } = await bidderAndAuction();
    const row = () => t.ctx.db.selectFrom('sessions').select(['sid', 'expires']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const { sid } = await row();
    await t.ctx.db.updateTable('sessions').set({ expires: Date.now() + DAY }).where('sid', '=', sid).execute();
    const before = Date.now();
    expect((await bid(api, auction.id, 1)).status).toBe(400);
    expect((await row()).expires).toBeGreaterThanOrEqual(before + TTL - 1000);
    expect((await row()).expires).toBeLessThanOrEqual(Date.now() + TTL + 1000);
  });
});

describe("a bidder's re-reads through the session fast path", () => {
  it("a warm read of the auction page computes no signature, reads no session or user row, and still shows the caller's own fields", async () => {
    const seller = await createUser(t.ctx);
    const api = await loginAs(t.url, seller);
    const auction = await createAuction(t.ctx, seller.id, { starting_price: 1000, reserve_price: 5000 });
    expect((await api.get(`/api/auction/${auction.id}/`)).body.reserve_price).toBe(5000);

    const hmac = vi.spyOn(crypto, 'createHmac');
    log = recordStatementsOf(t.ctx, { sessions: true });
    const detail = await api.get(`/api/auction/${auction.id}/`);
    const history = await api.get(`/api/bids/${auction.id}/`);
    const ownMax = await api.get(`/api/auctions/${auction.id}/auto-bid/`);
    expect(detail.status).toBe(200);
    expect(detail.body.reserve_price).toBe(5000);
    expect(history.body).toEqual([]);
    expect(ownMax.body).toEqual({ max_amount: null });
    for (const res of [detail, history, ownMax]) expect(res.headers.getSetCookie()).toEqual([]);
    expect(hmac).not.toHaveBeenCalled();
    expect(log.sources.filter((sql) => /\bsessions\b|from "users" where "id" =/i.test(sql))).toEqual([]);
  });

  it('after a logout the same cookie reads the auction as a visitor: no reserve price, and its own maximum refused', async () => {
    const seller = await createUser(t.ctx);
    const api = await loginAs(t.url, seller);
    const auction = await createAuction(t.ctx, seller.id, { starting_price: 1000, reserve_price: 5000 });
    expect((await api.get(`/api/auction/${auction.id}/`)).body.reserve_price).toBe(5000);
    const kept = sameBrowserOn(api, t);
    expect((await api.post('/api/logout/', {})).status).toBe(200);
    const detail = await kept.get(`/api/auction/${auction.id}/`);
    expect(detail.status).toBe(200);
    expect(detail.body.reserve_price).toBeUndefined();
    expect((await kept.get(`/api/auctions/${auction.id}/auto-bid/`)).status).toBe(403);
  });
});
