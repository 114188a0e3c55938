import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ApiClient } from '../support/http';
import { startE2EServer, type E2EServer } from './support/server';
import { launchBrowser, login, makeUser, newPage, screenshot, type TestUser } from './support/browser';
import { apiUser, jpeg } from './support/api';

/**
 * Issue 26 in Chromium against the production build: the seller relists an auction that ended unsold from
 * /moje-aukcije ('Ponovo postavi', the dialog with the duration and the price) and lands on the new auction with
 * the old one's title and image; then edits an open auction before any bid ('Izmeni' on its page: the create form,
 * prefilled) while a second browser watches that auction, whose page changes without a reload.
 *
 * One "day" is 5 s (AUCTION_DAY_SECONDS): the one-day auction ends in 5 s, the seven-day one lasts 35 s.
 */

const DAY_SECONDS = 5;

let server: E2EServer;
let browser: Browser;
let sellerApi: ApiClient;
const seller = makeUser('prodavac');
const watcher = makeUser('posmatrac');
type Ctx = { context: BrowserContext; page: Page };
let S: Ctx;
let W: Ctx;

async function createAuction(title: string, days: number): Promise<number> {
  const created = await sellerApi.post('/api/auctionItems/', {
    title,
    description: `${title}: ispravno, preuzimanje lično u Subotici.`,
    current_price: 1000,
    auction_duration: days,
    city: 'Subotica',
    phone_number: '0641234567',
    category: 'furniture',
  });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(await jpeg('#8a5a2b'))], { type: 'image/jpeg' }), 'slika.jpg');
  expect((await sellerApi.post(`/api/auction-items/${id}/images/`, form)).status).toBe(201);
  return id;
}

describe('relisting and editing in the browser', () => {
  beforeAll(async () => {
    server = await startE2EServer({ AUCTION_DAY_SECONDS: String(DAY_SECONDS), SOFT_CLOSE_SECONDS: '0' });
    browser = await launchBrowser();
    [sellerApi] = await Promise.all([apiUser(server, seller), apiUser(server, watcher)]);
    const ctxFor = async (user: TestUser): Promise<Ctx> => {
      const c = await newPage(browser, server);
      await login(c.page, user);
      return c;
    };
    [S, W] = await Promise.all([ctxFor(seller), ctxFor(watcher)]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('relists an unsold auction from /moje-aukcije: a new auction with the old title and image', async () => {
    const oldId = await createAuction('Stara komoda od hrasta', 1);
    // Ended without bids and closed by the closer (outcome unsold).
    for (let i = 0; i < 100; i++) {
      const d = await sellerApi.get(`/api/auction/${oldId}/`);
      if (d.body.outcome === 'unsold') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const page = S.page;
    await page.goto('/moje-aukcije');
    const card = page.locator('article.auction-card').filter({ hasText: 'Stara komoda od hrasta' });
    await card.getByRole('button', { name: 'Ponovo postavi' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ponovo postavi aukciju' });
    await dialog.getByLabel('Trajanje').selectOption('7');
    await dialog.getByLabel('Početna cena (RSD)').fill('1500');
    await screenshot(page, 'relist-dialog');
    await dialog.getByRole('button', { name: 'Postavi' }).click();
    await page.waitForURL((url) => /\/aukcija\/\d+$/.test(url.pathname) && url.pathname !== `/aukcija/${oldId}`, { timeout: 10_000 });
    const newId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { level: 1, name: 'Stara komoda od hrasta' }).waitFor();
    await page.getByTestId('current-price').filter({ hasText: '1.500 RSD' }).waitFor();
    const d = (await sellerApi.get(`/api/auction/${newId}/`)).body;
    expect(d).toMatchObject({ relisted_from: oldId, relist_count: 1, status: 'active', title: 'Stara komoda od hrasta' });
    expect(d.images).toHaveLength(1);
    const img = await page.request.get(d.images[0].image);
    expect(img.status()).toBe(200);
    // The old auction's card now links to the new one instead of offering a second relist.
    await page.goto('/moje-aukcije');
    const oldCard = page.locator('article.auction-card').filter({ hasText: 'Stara komoda od hrasta' }).filter({ hasText: 'Ponovo postavljena' });
    await oldCard.getByRole('link', { name: 'Ponovo postavljena: pogledajte novu aukciju' }).waitFor();
    expect(await page.locator('article.auction-card').getByRole('button', { name: 'Ponovo postavi' }).count()).toBe(0);
  });

  it('edits an open auction before a bid; the watcher’s page changes live', async () => {
    const id = await createAuction('Polica za knjige', 7);
    await W.page.goto(`/aukcija/${id}`);
    await W.page.locator('article.detail[data-live="on"]').waitFor({ timeout: 10_000 });
    await W.page.getByRole('heading', { name: 'Polica za knjige' }).waitFor();

    const page = S.page;
    await page.goto(`/aukcija/${id}`);
    await page.getByRole('link', { name: 'Izmeni' }).click();
    await page.getByRole('heading', { name: 'Izmena aukcije' }).waitFor();
    expect(await page.getByLabel('Naslov').inputValue()).toBe('Polica za knjige');
    expect(await page.getByLabel('Grad').inputValue()).toBe('Subotica');
    // Images are changed at once: add one, move it first, delete the old one.
    const imagesNow = async () => ((await sellerApi.get(`/api/auction/${id}/`)).body.images as { id: number }[]).map((i) => i.id);
    const [oldImage] = await imagesNow();
    const idle = page.locator('section[aria-busy="false"]');
    await page.locator('input[type="file"]').setInputFiles([{ name: 'nova.jpg', mimeType: 'image/jpeg', buffer: await jpeg('#2b8a5a') }]);
    await expect.poll(imagesNow).toHaveLength(2);
    await idle.waitFor();
    await page.getByRole('button', { name: 'Pomeri sliku 2 unapred' }).click();
    await expect.poll(async () => (await imagesNow())[1]).toBe(oldImage);
    await idle.waitFor();
    await page.getByRole('button', { name: 'Obriši sliku 2' }).click();
    await expect.poll(imagesNow).toHaveLength(1);
    expect((await imagesNow())[0]).not.toBe(oldImage);
    await page.getByRole('button', { name: 'Obriši sliku 2' }).waitFor({ state: 'detached' });
    await page.getByLabel('Naslov').fill('Polica za knjige od bukve');
    await page.getByLabel('Početna cena (din)').fill('1200');
    await screenshot(page, 'edit-form');
    await page.getByRole('button', { name: 'Sačuvaj izmene' }).click();
    await page.waitForURL((url) => url.pathname === `/aukcija/${id}`, { timeout: 10_000 });
    await page.getByRole('heading', { name: 'Polica za knjige od bukve' }).waitFor();

    // The watcher's open page, without a reload.
    await W.page.getByRole('heading', { name: 'Polica za knjige od bukve' }).waitFor({ timeout: 5_000 });
    await W.page.getByTestId('current-price').filter({ hasText: '1.200 RSD' }).waitFor({ timeout: 5_000 });
    await screenshot(W.page, 'edit-watcher');
  });
});
