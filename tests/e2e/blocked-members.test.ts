import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ApiClient } from '../support/http';
import { startE2EServer, type E2EServer } from './support/server';
import { checkA11y, launchBrowser, login, makeUser, newPage, screenshot, type TestUser } from './support/browser';
import { apiAuction, apiBid, apiUser } from './support/api';

/**
 * Issue 24 in Chromium against the production build: a seller blocks a bidder from the bidder's profile
 * ('Blokiraj člana', confirmed with 'Da'); the bidder's open detail of the seller's auction then shows the
 * sentence instead of the bid box (no amount field, no 'Licitiraj') and a bid sent anyway is refused
 * `blocked_by_seller`; the bidder may still watch. The seller finds the bidder on /profil's block list and
 * unblocks them, and the bid box comes back.
 */

const SENTENCE = 'Prodavac vam je onemogućio učešće na svojim aukcijama.';

let server: E2EServer;
let browser: Browser;
let sellerApi: ApiClient;
let bidderApi: ApiClient;
const seller = makeUser('prodavac');
const bidder = makeUser('licitant');
type Ctx = { context: BrowserContext; page: Page };
let S: Ctx;
let B: Ctx;
let auctionId: number;
let bidderId: number;

describe('a blocked bidder', () => {
  beforeAll(async () => {
    server = await startE2EServer();
    browser = await launchBrowser();
    [sellerApi, bidderApi] = await Promise.all([apiUser(server, seller), apiUser(server, bidder)]);
    bidderId = (await bidderApi.get('/api/current_user_data/')).body.id as number;
    const named = await bidderApi.put('/api/update-profile/', { first_name: bidder.name, phone_number: bidder.phone, city: 'Niš', email: bidder.email });
    expect(named.status).toBe(200);
    auctionId = await apiAuction(sellerApi, { title: 'Bicikl Rog Cross', price: 1500 });
    await apiBid(bidderApi, auctionId, 1600);
    const ctxFor = async (user: TestUser): Promise<Ctx> => {
      const c = await newPage(browser, server);
      await login(c.page, user);
      return c;
    };
    [S, B] = await Promise.all([ctxFor(seller), ctxFor(bidder)]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("the seller blocks the bidder from the bidder's profile", async () => {
    const page = S.page;
    await page.goto(`/clan/${bidderId}`);
    await page.getByRole('heading', { name: bidder.name, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Blokiraj člana' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Blokiraj člana' });
    await dialog.waitFor();
    const posted = page.waitForResponse((r) => r.url().endsWith('/api/blocked-members/') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Da' }).click();
    expect((await posted).status()).toBe(201);
    await page.getByText('Član je blokiran.').waitFor();
  });

  it('the bidder sees the sentence instead of the bid box, cannot bid, and may still watch', async () => {
    const page = B.page;
    await page.goto(`/aukcija/${auctionId}`);
    const note = page.getByTestId('blocked-by-seller');
    await note.waitFor();
    expect(await note.innerText()).toBe(SENTENCE);
    expect(await page.getByLabel('Vaša ponuda (din)').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Licitiraj' }).count()).toBe(0);
    // Their bid from before the block stays.
    expect(await page.getByTestId('current-price').innerText()).toContain('1.600');
    // A bid sent anyway (their own session) is refused with the same sentence.
    const refused = await bidderApi.post('/api/bids/', { auction_item_id: auctionId, amount: 2000 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'blocked_by_seller', amount: [SENTENCE] });
    await page.getByRole('button', { name: 'Prati' }).click();
    await page.getByRole('button', { name: 'Pratite' }).waitFor();
    await checkA11y(page, '/aukcija/{id} (blocked)');
    await screenshot(page, 'blocked-bidder');
  });

  it("the seller unblocks them on /profil and the bidder's bid box comes back", async () => {
    const page = S.page;
    await page.goto('/profil');
    const row = page.getByTestId(`blocked-${bidderId}`);
    await row.waitFor();
    expect(await row.innerText()).toContain(bidder.name);
    await checkA11y(page, '/profil (block list)');
    const removed = page.waitForResponse((r) => r.url().endsWith(`/api/blocked-members/${bidderId}/`) && r.request().method() === 'DELETE');
    await row.getByRole('button', { name: 'Odblokiraj' }).click();
    expect((await removed).status()).toBe(204);
    await page.getByText('Niste blokirali nijednog člana.').waitFor();

    await B.page.reload();
    await B.page.getByLabel('Vaša ponuda (din)').waitFor();
    expect(await B.page.getByTestId('blocked-by-seller').count()).toBe(0);
  });
});
