import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ApiClient } from '../support/http';
import { startE2EServer, type E2EServer } from './support/server';
import { checkA11y, launchBrowser, login, makeUser, newPage, screenshot, type TestUser } from './support/browser';
import { apiBid, apiUser, jpeg } from './support/api';

/**
 * Issue 23 in Chromium against the production build: a whole trade. The buyer wins an auction (a real bid and
 * the closer's close: one auction "day" is AUCTION_DAY_SECONDS = 6 s, soft close off), both parties open their
 * pages from the user menu ('Kupljeni predmeti', 'Prodati predmeti'), see each other's contact and rate ('Oceni';
 * a negative rating without a reason is refused in the form), the seller answers the buyer's rating ('Odgovori'),
 * and the score shows on /clan/{id} (with the rating, its answer and the open auctions) and beside the seller's
 * name on the auction's detail and in its comments, which link to the profile.
 */

const DAY_SECONDS = 6;

let server: E2EServer;
let browser: Browser;
let sellerApi: ApiClient;
let buyerApi: ApiClient;
const seller = makeUser('prodavac');
const buyer = makeUser('kupac');
type Ctx = { context: BrowserContext; page: Page };
let S: Ctx;
let B: Ctx;
let auctionId: number;
let sellerId: number;
const TITLE = 'Gramofon Technics SL-1200';

async function createAuction(api: ApiClient, title: string, days: 1 | 7): Promise<number> {
  const res = await api.post('/api/auctionItems/', {
    title,
    description: `${title}: ispravan, servisiran, preuzimanje lično u Kraljevu.`,
    current_price: 1500,
    auction_duration: days,
    city: 'Kraljevo',
    phone_number: '0651234567',
    category: 'electronics',
  });
  if (res.status !== 201) throw new Error(`create ${res.status}: ${res.text}`);
  const id = res.body.id as number;
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(await jpeg('#8a5a44'))], { type: 'image/jpeg' }), 'slika.jpg');
  const images = await api.post(`/api/auction-items/${id}/images/`, form);
  if (images.status !== 201) throw new Error(`images ${images.status}: ${images.text}`);
  return id;
}

/** Opens a page of the user menu by its link text. */
async function fromUserMenu(page: Page, link: string, path: RegExp): Promise<void> {
  await page.getByRole('button', { name: 'Korisnički meni' }).click();
  await page.locator('.user-menu__panel').getByRole('link', { name: link }).click();
  await page.waitForURL(path);
}

describe('after the hammer: both sides rate, the reply, the score', () => {
  beforeAll(async () => {
    server = await startE2EServer({ AUCTION_DAY_SECONDS: String(DAY_SECONDS), SOFT_CLOSE_SECONDS: '0', RATING_WINDOW_DAYS: '200' });
    browser = await launchBrowser();
    [sellerApi, buyerApi] = await Promise.all([apiUser(server, seller), apiUser(server, buyer)]);
    const me = await sellerApi.get('/api/current_user_data/');
    sellerId = me.body.id as number;
    const profile = await sellerApi.put('/api/update-profile/', { first_name: seller.name, phone_number: seller.phone, city: 'Kraljevo', email: seller.email });
    expect(profile.status).toBe(200);
    auctionId = await createAuction(sellerApi, TITLE, 1);
    await apiBid(buyerApi, auctionId, 1600);
    const ctxFor = async (user: TestUser): Promise<Ctx> => {
      const c = await newPage(browser, server);
      await login(c.page, user);
      return c;
    };
    [S, B] = await Promise.all([ctxFor(seller), ctxFor(buyer)]);
    // The closer ends it with the buyer as the winner.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const d = await buyerApi.get(`/api/auction/${auctionId}/`);
      if (d.body.status === 'ended' && d.body.winner !== null) break;
      if (Date.now() > deadline) throw new Error('the auction did not close');
      await new Promise((r) => setTimeout(r, 250));
    }
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("the buyer finds the sale under 'Kupljeni predmeti' with the seller's contact and rates it positive", async () => {
    const page = B.page;
    await fromUserMenu(page, 'Kupljeni predmeti', /\/moje-kupovine$/);
    await page.getByRole('heading', { name: 'Kupljeni predmeti' }).waitFor();
    const sale = page.getByTestId(`sale-${auctionId}`);
    await sale.getByRole('heading', { name: TITLE }).waitFor();
    await expect.poll(() => sale.innerText()).toContain('1.600 RSD');
    const text = await sale.innerText();
    expect(text).toContain(seller.name);
    expect(text).toContain('0651234567');
    expect(text).toContain(seller.email);
    expect(text).toContain('Druga strana vas još nije ocenila.');
    await checkA11y(page, '/moje-kupovine');

    await sale.getByRole('button', { name: 'Oceni' }).click();
    await sale.getByLabel('Pozitivna').check();
    await sale.getByLabel('Komentar').fill('Odličan prodavac, sve kao u opisu.');
    const posted = page.waitForResponse((r) => r.url().endsWith(`/api/sales/${auctionId}/rating/`) && r.request().method() === 'POST');
    await sale.getByRole('button', { name: 'Pošalji ocenu' }).click();
    expect((await posted).status()).toBe(201);
    await sale.locator('.rating__value--positive').waitFor();
    await sale.getByText('Odličan prodavac, sve kao u opisu.').waitFor();
    expect(await sale.getByRole('button', { name: 'Oceni' }).count()).toBe(0);
  });

  it("the seller sees it under 'Prodati predmeti', rates the buyer (a short negative is refused) and answers", async () => {
    const page = S.page;
    // The buyer's rating reached the seller live: the toast beside the bell, with the way to answer.
    const toast = page.getByTestId('notice-toast').filter({ hasText: 'Dobili ste pozitivnu ocenu' });
    await toast.waitFor({ timeout: 10_000 });
    expect(await toast.getByRole('link', { name: 'Prodati predmeti' }).getAttribute('href')).toBe('/moje-prodaje');
    await fromUserMenu(page, 'Prodati predmeti', /\/moje-prodaje$/);
    const sale = page.getByTestId(`sale-${auctionId}`);
    await sale.getByText('Odličan prodavac, sve kao u opisu.').waitFor();
    const text = await sale.innerText();
    expect(text).toContain(buyer.name);
    expect(text).toContain(buyer.email);
    expect(text).toContain(buyer.phone);

    await sale.getByRole('button', { name: 'Oceni' }).click();
    await sale.getByLabel('Negativna').check();
    await sale.getByLabel('Komentar').fill('Kasni');
    await sale.getByRole('button', { name: 'Pošalji ocenu' }).click();
    await sale.getByText('Obrazložite negativnu ocenu (najmanje 10 znakova).').waitFor();
    await sale.getByLabel('Komentar').fill('Kasnio dva dana sa preuzimanjem.');
    const posted = page.waitForResponse((r) => r.url().endsWith(`/api/sales/${auctionId}/rating/`) && r.request().method() === 'POST');
    await sale.getByRole('button', { name: 'Pošalji ocenu' }).click();
    expect((await posted).status()).toBe(201);
    await sale.locator('.rating__value--negative').waitFor();

    await sale.getByRole('button', { name: 'Odgovori' }).click();
    await sale.getByLabel('Vaš odgovor').fill('Hvala, bilo je zadovoljstvo!');
    const replied = page.waitForResponse((r) => /\/api\/ratings\/\d+\/reply\/$/.test(r.url()) && r.request().method() === 'POST');
    await sale.getByRole('button', { name: 'Pošalji odgovor' }).click();
    expect((await replied).status()).toBe(201);
    await sale.locator('.rating__reply').getByText('Hvala, bilo je zadovoljstvo!').waitFor();
    expect(await sale.getByRole('button', { name: 'Odgovori' }).count()).toBe(0);
    await screenshot(page, 'sales-seller');
  });

  it('the buyer sees both ratings and the answer; the seller\'s rating reached them as a notification', async () => {
    const page = B.page;
    await page.reload();
    const sale = page.getByTestId(`sale-${auctionId}`);
    await sale.getByText('Kasnio dva dana sa preuzimanjem.').waitFor();
    await sale.getByText('Hvala, bilo je zadovoljstvo!').waitFor();
    const notes = await buyerApi.get('/api/notifications/');
    expect(notes.body.find((n: { kind: string }) => n.kind === 'rating_received')).toMatchObject({ auction_id: auctionId });
  });

  it('/clan/{id} shows the score, the rating with its answer and the open auctions', async () => {
    const open = await createAuction(sellerApi, 'Zvučnici Klipsch', 7);
    const page = B.page;
    await page.goto(`/clan/${sellerId}`);
    await page.getByRole('heading', { name: seller.name, level: 1 }).waitFor();
    const score = page.getByTestId('member-score');
    await expect.poll(() => score.innerText()).toContain('+1 / −0');
    expect(await score.innerText()).toContain('100% pozitivnih');
    const header = await page.locator('.member').innerText();
    expect(header).toContain('Kraljevo');
    expect(header).toMatch(/Član od \d{2}\.\d{2}\.\d{4}/);
    expect(header).toContain('Prodato: 1');
    expect(header).toContain('Aktivne aukcije: 1');
    expect(await page.locator('body').innerText()).not.toContain(seller.email);
    const ratings = page.locator('.member__ratings');
    await ratings.getByText('Odličan prodavac, sve kao u opisu.').waitFor();
    await ratings.getByText('Hvala, bilo je zadovoljstvo!').waitFor();
    expect(await ratings.innerText()).toContain('kao prodavac');
    await page.getByRole('link', { name: 'Zvučnici Klipsch' }).first().waitFor();
    expect(await page.locator(`a[href="/aukcija/${open}"]`).count()).toBeGreaterThan(0);
    await checkA11y(page, '/clan');
    await screenshot(page, 'member-profile');
    // Mobile (375 px): the profile, and the buyer's purchases with both ratings.
    const small = await newPage(browser, server, 375);
    await small.page.goto(`/clan/${sellerId}`);
    await small.page.getByTestId('member-score').waitFor();
    await checkA11y(small.page, '/clan @ 375');
    await screenshot(small.page, 'member-profile');
    await login(small.page, buyer);
    await small.page.goto('/moje-kupovine');
    await small.page.getByTestId(`sale-${auctionId}`).getByText('Hvala, bilo je zadovoljstvo!').waitFor();
    await checkA11y(small.page, '/moje-kupovine @ 375');
    await screenshot(small.page, 'sales-buyer');
    await small.context.close();
  });

  it("the detail shows the score beside the seller's name, in the comments too, and links to the profile", async () => {
    const page = B.page;
    const comment = await sellerApi.post('/api/comments/create/', { auction_item_id: auctionId, content: 'Hvala svima na licitaciji.' });
    expect(comment.status).toBe(201);
    await page.goto(`/aukcija/${auctionId}`);
    const sellerLine = page.getByTestId('detail-seller');
    await sellerLine.getByRole('link', { name: seller.name }).waitFor();
    await expect.poll(() => page.getByTestId('seller-score').innerText()).toContain('+1 / −0');
    const sellerComment = page.locator('.comment').filter({ hasText: 'Hvala svima na licitaciji.' });
    await sellerComment.waitFor();
    expect(await sellerComment.locator('.rating-score').innerText()).toContain('+1 / −0');
    await sellerLine.getByRole('link', { name: seller.name }).click();
    await page.waitForURL(new RegExp(`/clan/${sellerId}$`));
    await page.getByTestId('member-score').waitFor();
  });
});
