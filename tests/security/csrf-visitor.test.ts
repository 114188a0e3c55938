/**
 * Visitor CSRF tokens (issue 20, docs/security.md "Which CSRF token is accepted when"): a visitor's first read
 * under /api/ sets a signed `csrftoken` without storing a session; a write is accepted with it only when no
 * session holds a token, the header equals the cookie, and this server signed it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/app';
import { createAuction } from '../support/auctions';
import { createUser, loginAs } from '../support/factories';
import { ApiClient } from '../support/http';

let t: TestServer;
let other: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  other = await startTestServer({ SESSION_SECRET: 'another-secret-another-secret-another' });
});
afterAll(async () => {
  await t?.close();
  await other?.close();
});

const sessionRows = async () => (await t.ctx.db.selectFrom('sessions').select('sid').execute()).length;
const userRows = async () => (await t.ctx.db.selectFrom('users').select('id').execute()).length;

/** A visitor's token from `server`'s first read, as a browser would hold it. */
async function visitorToken(server: TestServer): Promise<string> {
  const res = await fetch(`${server.url}/api/user/status/`);
  const line = res.headers.getSetCookie().find((l) => l.startsWith('csrftoken='));
  expect(line, 'a visitor read sets csrftoken').toBeTruthy();
  expect(res.headers.getSetCookie().some((l) => l.startsWith('sessionid='))).toBe(false);
  return decodeURIComponent(line!.split(';')[0]!.slice('csrftoken='.length));
}

/** POST /api/user/register/ as a visitor sending `cookie` as the csrftoken cookie and `header` as X-CSRFToken. */
async function register(cookie: string | null, header: string | null, origin = t.url) {
  const headers: Record<string, string> = { 'content-type': 'application/json', origin };
  if (cookie !== null) headers.cookie = `csrftoken=${encodeURIComponent(cookie)}`;
  if (header !== null) headers['x-csrftoken'] = header;
  const body = { first_name: 'Posetilac', email: `p${Math.random().toString(36).slice(2)}@example.com`, phone_number: '0641234567', password: 'Lozinka123' };
  const res = await fetch(`${t.url}/api/user/register/`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { code?: string } };
}

describe('visitor CSRF tokens', () => {
  it('a read sets one without a stored session; a read that already holds a valid one gets no new cookie', async () => {
    const before = await sessionRows();
    const token = await visitorToken(t);
    const again = await fetch(`${t.url}/api/auctions/?page=1`, { headers: { cookie: `csrftoken=${encodeURIComponent(token)}` } });
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(await sessionRows()).toBe(before);
  });

  it('is accepted as the header equal to the cookie, and the write stores nothing but its own rows', async () => {
    const token = await visitorToken(t);
    const [sessions, users] = [await sessionRows(), await userRows()];
    expect((await register(token, token)).status).toBe(201);
    expect(await userRows()).toBe(users + 1);
    expect(await sessionRows()).toBe(sessions);
  });

  it('refuses every forgery with 403 csrf and writes nothing', async () => {
    const token = await visitorToken(t);
    const second = await visitorToken(t);
    const alienToken = await visitorToken(other);
    const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    const cases: [string, string | null, string | null][] = [
      ['no header', token, null],
      ['header without the cookie', null, token],
      ['header and cookie differ (both valid)', token, second],
      ['a tampered signature', tampered, tampered],
      ['signed by another server', alienToken, alienToken],
      ['not a visitor token at all', 'abc', 'abc'],
    ];
    const users = await userRows();
    for (const [name, cookie, header] of cases) {
      const res = await register(cookie, header);
      expect(res.status, name).toBe(403);
      expect(res.body.code, name).toBe('csrf');
    }
    expect((await register(token, token, 'https://zli-sajt.example')).body.code).toBe('csrf_origin');
    expect(await userRows()).toBe(users);
  });

  it('is refused once a session holds a token: a logged-in user must send the session token', async () => {
    const seller = await createUser(t.ctx);
    const auction = await createAuction(t.ctx, seller.id);
    const api = await loginAs(t.url, await createUser(t.ctx));
    const token = await visitorToken(t);
    api.cookies.set('csrftoken', encodeURIComponent(token));
    const res = await api.post('/api/bids/', { auction_item_id: auction.id, amount: 1010 }, { csrf: token });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf');
    expect((await t.ctx.db.selectFrom('bids').select('id').where('auction_id', '=', auction.id).execute()).length).toBe(0);
  });

  it('login replaces it with the session token; logout leaves a fresh visitor token that logs in again', async () => {
    const user = await createUser(t.ctx);
    const api = new ApiClient(t.url);
    await api.get('/api/user/status/');
    const visitor = api.csrfToken()!;
    expect(visitor.startsWith('v1.')).toBe(true);
    expect((await api.post('/api/login/', { email: user.email, password: user.password })).status).toBe(200);
    const sessionToken = api.csrfToken()!;
    expect(sessionToken).not.toBe(visitor);
    // The visitor token is no longer accepted for this (logged-in) browser.
    expect((await api.post('/api/logout/', undefined, { csrf: visitor })).status).toBe(403);
    expect((await api.post('/api/logout/')).status).toBe(200);
    const after = api.csrfToken()!;
    expect(after.startsWith('v1.')).toBe(true);
    expect(after).not.toBe(visitor);
    expect(api.cookies.has('sessionid')).toBe(false);
    expect((await api.post('/api/login/', { email: user.email, password: user.password })).status).toBe(200);
  });
});
