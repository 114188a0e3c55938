import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startE2EServer, type E2EServer } from './support/server';
import { launchBrowser, makeUser, newPage } from './support/browser';
import { apiAuction, apiBid, apiUser } from './support/api';

/**
 * The original web client's way of sending the CSRF token, in a real Chromium (issue 20): a page of our origin
 * that, like axios with `xsrfCookieName: 'csrftoken'`, reads the token from `document.cookie` and sends it as
 * `X-CSRFToken` only when the cookie is there. It never asks GET /api/csrf/. The browser keeps the cookies.
 */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>original</title></head><body><script>
window.call = async (method, path, body) => {
  const headers = { Accept: 'application/json' };
  const m = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
  if (m) headers['X-CSRFToken'] = decodeURIComponent(m[1]);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, credentials: 'include', body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = text;
  try { data = JSON.parse(text); } catch {}
  return { status: res.status, data };
};
</script></body></html>`;

let server: E2EServer;
let browser: Browser;
beforeAll(async () => {
  server = await startE2EServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type Answer = { status: number; data: unknown };
const call = (page: Page, method: string, path: string, body?: unknown) =>
  page.evaluate(([m, p, b]) => (window as unknown as { call: (...a: unknown[]) => Promise<Answer> }).call(m, p, b), [method, path, body] as const);

describe('the original client in Chromium, never asking GET /api/csrf/', () => {
  it('a fresh browser reads the bid names, logs in, bids, logs out and logs in again', async () => {
    const seller = await apiUser(server, makeUser('prodavac'));
    const bidder = makeUser('kupac');
    const bidderApi = await apiUser(server, bidder);
    const auctionId = await apiAuction(seller, { title: 'Stari radio', price: 1000 });
    await apiBid(bidderApi, auctionId, 1010);

    const { context, page } = await newPage(browser, server);
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await context.route(`${server.url}/original/`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: PAGE }));
    await page.goto('/original/');

    expect(await call(page, 'GET', '/api/user/status/')).toMatchObject({ status: 200, data: { is_authenticated: false } });
    const cookies = await context.cookies();
    expect(cookies.map((c) => c.name)).toEqual(['csrftoken']);
    const history = (await call(page, 'GET', `/api/bids/${auctionId}/`)).data as { bidder: number }[];
    const names = await call(page, 'POST', '/api/users/', { ids: history.map((b) => b.bidder) });
    expect(names).toEqual({ status: 200, data: [bidder.name] });

    expect((await call(page, 'POST', '/api/login/', { email: bidder.email, password: bidder.password })).status).toBe(200);
    expect(await call(page, 'GET', '/api/user/status/')).toMatchObject({ data: { is_authenticated: true } });
    expect((await call(page, 'POST', '/api/bids/', { auction_item_id: auctionId, amount: 1100 })).status).toBe(201);
    expect((await call(page, 'POST', '/api/logout/')).status).toBe(200);
    expect((await context.cookies()).map((c) => c.name)).toEqual(['csrftoken']);
    expect((await call(page, 'POST', '/api/login/', { email: bidder.email, password: bidder.password })).status).toBe(200);
    expect(await call(page, 'GET', '/api/user/status/')).toMatchObject({ data: { is_authenticated: true } });
    expect(asked.filter((p) => p === '/api/csrf/')).toEqual([]);
    await context.close();
  });
});
