import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ApiClient } from '../support/http';
import { apiUser } from './support/api';
import { checkA11y, launchBrowser, login, makeUser, newPage, screenshot, type TestUser } from './support/browser';
import { startE2EServer, type E2EServer } from './support/server';

/**
 * Issue 11 §4 in Chromium against the production build: with 45 auctions and 45 users, the admin finds one
 * that is not on the first page by typing (a word of its title, part of an e-mail); the URL keeps the tab,
 * search and page, a reload shows the same result and the back button returns to the previous list.
 */

const COUNT = 45;
const RUN = Date.now().toString(36);
/** Created first, so it ends first: on the last page of the default order (latest end first). */
const TARGET_TITLE = 'Gramofon Dual iz sedamdesetih';
/** Registered last, so it is on the last page of users (oldest first). */
const TARGET_EMAIL = `zvezdana.jovanovic.${RUN}@posta.rs`;

let server: E2EServer;
let browser: Browser;
let admin: TestUser;

async function registerUser(i: number, email: string): Promise<void> {
  const res = await new ApiClient(server.url).post('/api/user/register/', {
    first_name: `Kupac ${i}`,
    email,
    phone_number: `0641${String(100000 + i)}`,
    password: `Lozinka${i}23`,
  });
  if (res.status !== 201) throw new Error(`register ${res.status}: ${res.text}`);
}

beforeAll(async () => {
  admin = makeUser('admin');
  server = await startE2EServer({ ADMIN_EMAILS: admin.email });
  browser = await launchBrowser();
  await apiUser(server, admin);
  // Auctions through the API (no images: the cheapest way); the seller is one of the 45 users below.
  const seller = makeUser('prodavac');
  const sellerApi = await apiUser(server, seller);
  for (let i = 0; i < COUNT; i++) {
    const res = await sellerApi.post('/api/auctionItems/', {
      title: i === 0 ? TARGET_TITLE : `Predmet broj ${i}`,
      description: `Opis predmeta ${i}, očuvan.`,
      current_price: 1000 + i,
      auction_duration: 7,
      city: 'Novi Sad',
      phone_number: '0641234567',
      category: 'electronics',
    });
    if (res.status !== 201) throw new Error(`create ${res.status}: ${res.text}`);
  }
  // 44 more users (45 with the seller), the one to find last; a few registrations at a time.
  const emails = Array.from({ length: COUNT - 2 }, (_, i) => `kupac${i}.${RUN}@primer.rs`).concat(TARGET_EMAIL);
  for (let i = 0; i < emails.length; i += 5) {
    await Promise.all(emails.slice(i, i + 5).map((email, j) => registerUser(i + j, email)));
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const auctionRows = (page: Page) => page.locator('section[aria-labelledby="admin-auctions-title"] .admin-row');
const userRows = (page: Page) => page.locator('section[aria-labelledby="admin-users-title"] .admin-row');
const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

describe('admin dashboard with more than a page of work', () => {
  it('finds an auction that is not on the first page by a word of its title; URL, reload and back keep it', async () => {
    const { context, page } = await newPage(browser, server);
    await login(page, admin, /\/admin\/dashboard$/);
    await page.getByRole('heading', { name: /Sve aukcije/ }).waitFor();
    await expect.poll(() => auctionRows(page).count()).toBe(20);
    expect(await page.locator('#admin-auctions-title').innerText()).toContain(`(${COUNT})`);
    expect(await auctionRows(page).filter({ hasText: TARGET_TITLE }).count()).toBe(0);

    // Page 2 is in the URL and survives a reload.
    await page.getByRole('navigation', { name: 'Strane: Sve aukcije' }).getByRole('button', { name: 'Sledeća' }).click();
    await page.waitForURL(/[?&]page=2/);
    await page.reload();
    await page.getByText('Strana 2 / 3').waitFor();
    expect(await auctionRows(page).filter({ hasText: TARGET_TITLE }).count()).toBe(0);

    // Typing a word of its title (any case, without diacritics): back to page 1, the one auction.
    await page.getByLabel('Pretraga aukcija').fill('GRAMOFON');
    await page.waitForURL((u) => u.searchParams.get('q') === 'GRAMOFON');
    expect(query(page)).toEqual({ q: 'GRAMOFON' });
    await expect.poll(() => auctionRows(page).count()).toBe(1);
    await auctionRows(page).filter({ hasText: TARGET_TITLE }).waitFor();
    expect(await page.locator('#admin-auctions-title').innerText()).toContain('(1)');

    // A reload shows the same result, with the search in the box.
    await page.reload();
    await auctionRows(page).filter({ hasText: TARGET_TITLE }).waitFor();
    expect(await auctionRows(page).count()).toBe(1);
    expect(await page.getByLabel('Pretraga aukcija').inputValue()).toBe('GRAMOFON');

    // Ended only: nothing has ended yet.
    await page.getByLabel('Status').selectOption('ended');
    await page.getByText('Nema rezultata za „GRAMOFON“.').waitFor();
    expect(query(page)).toEqual({ q: 'GRAMOFON', status: 'ended' });
    await checkA11y(page, 'admin dashboard, no results');

    // Back: the search result; back again: page 2 of everything.
    await page.goBack();
    await auctionRows(page).filter({ hasText: TARGET_TITLE }).waitFor();
    await page.goBack();
    await page.getByText('Strana 2 / 3').waitFor();
    await expect.poll(() => page.getByLabel('Pretraga aukcija').inputValue()).toBe('');
    await expect.poll(() => auctionRows(page).count()).toBe(20);
    await context.close();
  });

  it('finds a user that is not on the first page by part of the e-mail; the tab and search stay in the URL', async () => {
    const { context, page } = await newPage(browser, server);
    await login(page, admin, /\/admin\/dashboard$/);
    await page.getByRole('tab', { name: 'Korisnici' }).click();
    await page.waitForURL(/[?&]tab=korisnici/);
    await expect.poll(() => userRows(page).count()).toBe(20);
    // The admin, the seller and 44 buyers.
    expect(await page.locator('#admin-users-title').innerText()).toContain(`(${COUNT + 1})`);
    expect(await userRows(page).filter({ hasText: TARGET_EMAIL }).count()).toBe(0);

    await page.getByLabel('Pretraga korisnika').fill(`jovanovic.${RUN}@`);
    await page.waitForURL((u) => u.searchParams.get('q') === `jovanovic.${RUN}@`);
    await expect.poll(() => userRows(page).count()).toBe(1);
    await userRows(page).filter({ hasText: TARGET_EMAIL }).waitFor();
    expect(query(page)).toEqual({ tab: 'korisnici', q: `jovanovic.${RUN}@` });

    await page.reload();
    await userRows(page).filter({ hasText: TARGET_EMAIL }).waitFor();
    expect(await userRows(page).count()).toBe(1);
    expect(await page.getByRole('tab', { name: 'Korisnici' }).getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'admin-users-search');

    // The found user can be blocked from here.
    await userRows(page).getByRole('button', { name: 'Blokiraj: Kupac 43' }).click();
    await userRows(page).getByText('Blokiran', { exact: true }).waitFor();
    await context.close();
  });
});
