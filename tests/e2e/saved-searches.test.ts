import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { startE2EServer, type E2EServer } from './support/server';
import { launchBrowser, login, makeUser, newPage, screenshot } from './support/browser';
import { apiAuction, apiUser } from './support/api';

/**
 * Issue 28 in Chromium, on a phone-width screen: a member searches /aukcije with the 'Filteri' panel (text and a
 * highest price, both in the URL), saves the search, sees it on /sacuvane-pretrage; another member posts a
 * matching auction, and the bell rings with the saved search's notification; a too expensive one does not ring.
 */

let server: E2EServer;
let browser: Browser;
const ana = makeUser('ana');
const seller = makeUser('prodavac');

function hasText(locator: Locator, text: string | RegExp, ms: number): Promise<void> {
  return locator.filter({ hasText: text }).first().waitFor({ timeout: ms });
}

describe('Sačuvane pretrage in the browser', () => {
  beforeAll(async () => {
    server = await startE2EServer({ MAIL_POLL_SECONDS: '0.2' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('save a search with its filters, another member posts a match, the bell shows it', async () => {
    const anaApi = await apiUser(server, ana);
    const sellerApi = await apiUser(server, seller);
    const { page, context } = await newPage(browser, server, 390);
    await login(page, ana);
    await page.getByRole('button', { name: 'Filteri' }).click();
    await page.getByRole('searchbox').fill('kontrabas');
    await page.waitForURL(/q=kontrabas/);
    const max = page.getByLabel('Cena do (din)');
    await max.fill('5000');
    await max.press('Enter');
    await page.waitForURL(/max_price=5000/);
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/saved-searches/') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Sačuvaj pretragu' }).click();
    expect((await saved).status()).toBe(201);
    await page.getByText('Pretraga je sačuvana.').waitFor();
    await screenshot(page, 'saved-search-filters-mobile');
    await page.getByRole('link', { name: 'Sačuvane pretrage' }).click();
    await page.waitForURL(/\/sacuvane-pretrage$/);
    await hasText(page.locator('.saved-searches__item'), '„kontrabas”', 5000);
    await hasText(page.locator('.saved-searches__item'), 'do 5000 din', 5000);

    // Too expensive: no notification. Then a match: the bell shows it live.
    await apiAuction(sellerApi, { title: 'Kontrabas skupi', price: 9000 });
    const id = await apiAuction(sellerApi, { title: 'Kontrabas Cremona', price: 3000 });
    await hasText(page.getByTestId('unread-badge'), /^1$/, 10_000).catch(async (err: unknown) => {
      console.error(JSON.stringify((await anaApi.get('/api/notifications/')).body), JSON.stringify((await anaApi.get('/api/saved-searches/')).body));
      throw err;
    });
    await page.locator('.site-header__bell').first().click();
    await page.waitForURL(/\/notifikacije$/);
    await page.getByText('Nova aukcija za vašu pretragu „kontrabas”:').first().waitFor();
    const link = page.getByRole('link', { name: 'Kontrabas Cremona' }).first();
    expect(await link.getAttribute('href')).toBe(`/aukcija/${id}`);
    expect(await page.getByText('Kontrabas skupi').count()).toBe(0);
    await screenshot(page, 'saved-search-notification-mobile');

    // Deleting it on /sacuvane-pretrage leaves the empty state.
    await page.goto('/sacuvane-pretrage');
    await page.getByRole('button', { name: 'Obriši' }).click();
    await page.getByText('Nemate sačuvanih pretraga.').waitFor();
    await context.close();
  });
});
