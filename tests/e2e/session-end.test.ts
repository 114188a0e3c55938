import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ApiClient } from '../support/http';
import { startE2EServer, type E2EServer } from './support/server';
import { launchBrowser, login, makeUser, newPage, screenshot, type TestUser } from './support/browser';
import { apiAuction, apiUser, jpeg } from './support/api';

/**
 * A session that ends under an open page (issue 11, point 2), in Chromium against the production build.
 * Cookies cleared while a page is open, then a bid, a comment or a new auction: the server answers 403
 * `not_authenticated`, and the user must land on /login with a message saying why, not be bounced back to
 * /aukcije by the login route's guest guard (which saw the cached user 4 runs in 5 before the fix). A user
 * blocked by an admin while the auction page is open is sent to /login by the socket's `session:ended`
 * without touching anything. After logging in again the user is back on the page they were on.
 */

const ENDED = 'Vaša sesija je istekla. Prijavite se ponovo.';
const BLOCKED = 'Vaš nalog je blokiran, pa ste odjavljeni.';

let server: E2EServer;
let browser: Browser;
let sellerApi: ApiClient;
let adminApi: ApiClient;
let auctionId: number;
const admin = makeUser('admin');
const seller = makeUser('prodavac');
const open: BrowserContext[] = [];

/** A verified user, logged in in a fresh browser context. */
async function loggedInPage(prefix: string): Promise<{ user: TestUser; api: ApiClient; context: BrowserContext; page: Page }> {
  const user = makeUser(prefix);
  const api = await apiUser(server, user);
  const { context, page } = await newPage(browser, server);
  open.push(context);
  await login(page, user);
  return { user, api, context, page };
}

/** Opens the auction's detail page and waits until it follows the auction's room (socket joined). */
async function openAuction(page: Page): Promise<void> {
  await page.goto(`/aukcija/${auctionId}`);
  await page.locator('article.detail[data-live="on"]').waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Korisnički meni' }).waitFor();
}

/** On /login with `message`, logged out in the header, and still there a moment later (no bounce). */
async function expectLoginWith(page: Page, message: string, shot: string): Promise<void> {
  await page.waitForURL(/\/login$/, { timeout: 10_000 }).catch((err: unknown) => {
    throw new Error(`not on /login but on ${page.url()}: ${String(err).split('\n')[0]}`);
  });
  await page.getByRole('heading', { name: 'Prijavite se' }).waitFor();
  await page.getByText(message, { exact: true }).waitFor({ timeout: 5_000 });
  // The guest guard decided: wait past the status re-read that used to bounce the user to /aukcije.
  await page.waitForTimeout(1500);
  expect(new URL(page.url()).pathname).toBe('/login');
  expect(await page.getByText(message, { exact: true }).isVisible()).toBe(true);
  expect(await page.getByRole('button', { name: 'Korisnički meni' }).count()).toBe(0);
  await screenshot(page, shot);
}

/** Logs in on the /login page the user is already on, then expects to be back at `path`. */
async function loginAgain(page: Page, user: TestUser, path: string): Promise<void> {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Lozinka', { exact: true }).fill(user.password);
  await page.locator('form').getByRole('button', { name: 'Uloguj se' }).click();
  await page.getByText('Uspesno ste se ulogovali!').waitFor();
  await page.waitForURL((u) => u.pathname === path, { timeout: 20_000 });
  await page.getByRole('button', { name: 'Korisnički meni' }).waitFor();
}

describe('a session that ends under an open page', () => {
  beforeAll(async () => {
    server = await startE2EServer({ ADMIN_EMAILS: admin.email });
    browser = await launchBrowser();
    [sellerApi, adminApi] = await Promise.all([apiUser(server, seller), apiUser(server, admin)]);
    auctionId = await apiAuction(sellerApi, { title: 'Bicikl Capriolo Sunrise', price: 2000 });
  });

  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it('cookies cleared, then a bid: /login with the message (not bounced to /aukcije), and back to the auction after login', async () => {
    const { user, context, page } = await loggedInPage('kupac');
    await openAuction(page);
    await context.clearCookies();

    await page.getByLabel('Vaša ponuda (din)').fill('2500');
    await page.getByRole('button', { name: 'Licitiraj' }).click();
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/bids/') && r.request().method() === 'POST');
    await page.getByRole('alertdialog', { name: 'Potvrdi licitaciju' }).getByRole('button', { name: 'Da' }).click();
    const res = await answer;
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('not_authenticated');

    await expectLoginWith(page, ENDED, 'session-end-bid');
    await loginAgain(page, user, `/aukcija/${auctionId}`);
    await page.getByLabel('Vaša ponuda (din)').waitFor();
  });

  it('cookies cleared, then a comment: /login with the message', async () => {
    const { page, context } = await loggedInPage('komentator');
    await openAuction(page);
    await context.clearCookies();

    await page.getByLabel('Vaš komentar').fill('Da li je bicikl još dostupan?');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/comments/create/') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Pošalji' }).click();
    const res = await answer;
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('not_authenticated');

    await expectLoginWith(page, ENDED, 'session-end-comment');
  });

  it('cookies cleared, then creating an auction: /login with the message, and back to /nova-aukcija after login', async () => {
    const { user, page, context } = await loggedInPage('prodavac2');
    await page.goto('/nova-aukcija');
    await page.getByRole('heading', { name: 'Nova aukcija' }).waitFor();
    await page.getByLabel('Naslov').fill('Gitara Yamaha C40');
    await page.getByLabel('Opis', { exact: true }).fill('Klasična gitara, očuvana, sa torbom. Preuzimanje lično u Beogradu.');
    await page.getByLabel('Početna cena (din)').fill('9000');
    await page.getByLabel('Grad').fill('Beograd');
    await page.getByLabel('Broj telefona').fill('0641234567');
    await page.getByLabel('Kategorija').selectOption('other');
    await page.getByLabel('Slike (do 6, najviše 6 MB svaka)').setInputFiles([
      { name: 'gitara.jpg', mimeType: 'image/jpeg', buffer: await jpeg('#8a5a2b', 400, 300) },
    ]);
    await page.getByTestId('image-preview').first().waitFor();
    await context.clearCookies();

    const answer = page.waitForResponse((r) => r.url().endsWith('/api/auctionItems/') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Postavi aukciju' }).click();
    const res = await answer;
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('not_authenticated');

    await expectLoginWith(page, ENDED, 'session-end-create');
    await loginAgain(page, user, '/nova-aukcija');
    await page.getByRole('heading', { name: 'Nova aukcija' }).waitFor();
  });

  it('blocked by an admin while the auction page is open: the socket event alone takes the user to /login', async () => {
    const { api, page } = await loggedInPage('blokiran');
    await openAuction(page);
    const me = await api.get('/api/current_user_data/');
    expect(me.status).toBe(200);
    const userId = me.body.id as number;
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET') requests.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });

    const blocked = await adminApi.post(`/api/admin/users/${userId}/block/`);
    expect(blocked.status).toBe(200);

    await expectLoginWith(page, BLOCKED, 'session-end-blocked');
    // Nothing was sent by the page: no click, no bid, no comment (socket.io polling aside).
    expect(requests.filter((r) => !r.includes('/socket.io/'))).toEqual([]);
  });

  it('password changed in another browser: the open auction page goes to /login; the browser that changed it stays logged in', async () => {
    const laptop = await loggedInPage('lozinka');
    const { context, page: phone } = await newPage(browser, server);
    open.push(context);
    await login(phone, laptop.user);
    await openAuction(laptop.page);

    await phone.goto('/promena-lozinke');
    await phone.getByLabel('Stara lozinka').fill(laptop.user.password);
    await phone.getByLabel('Nova lozinka').fill('NovaLozinka77');
    await phone.getByLabel('Potvrda nove lozinke').fill('NovaLozinka77');
    await phone.getByRole('button', { name: 'Promeni lozinku' }).click();
    await phone.getByText('Lozinka je uspešno promenjena.').waitFor();

    await expectLoginWith(laptop.page, ENDED, 'session-end-password');
    // The phone's own socket heard session:ended too (its session id changed): it re-read the status and stayed.
    await phone.waitForTimeout(1000);
    expect(new URL(phone.url()).pathname).toBe('/promena-lozinke');
    expect(await phone.getByText(ENDED).count()).toBe(0);
    await phone.getByRole('button', { name: 'Korisnički meni' }).waitFor();
    await loginAgain(laptop.page, { ...laptop.user, password: 'NovaLozinka77' }, `/aukcija/${auctionId}`);
  });

  it('logging out on the auction page is no "session ended": /aukcije, no message', async () => {
    const { page } = await loggedInPage('odjava');
    await openAuction(page);
    const visited: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) visited.push(new URL(f.url()).pathname);
    });
    await page.getByRole('button', { name: 'Korisnički meni' }).click();
    await page.getByRole('button', { name: 'Odjava' }).click();
    await page.waitForURL(/\/aukcije$/);
    await page.getByRole('link', { name: 'Uloguj se' }).first().waitFor();
    await page.waitForTimeout(1500);
    expect(new URL(page.url()).pathname).toBe('/aukcije');
    expect(visited).not.toContain('/login');
    expect(await page.getByText(ENDED).count()).toBe(0);
  });
});
