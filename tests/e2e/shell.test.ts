import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, makeUser, newPage, settle } from './support/browser';
import { apiUser } from './support/api';
import { adminUser, seedMarketplace, type Marketplace } from './support/fixtures';
import { startE2EServer, type E2EServer } from './support/server';

let server: E2EServer;
let browser: Browser;
let market: Marketplace;

beforeAll(async () => {
  const admin = adminUser();
  server = await startE2EServer({ ADMIN_EMAILS: admin.email });
  browser = await launchBrowser();
  market = await seedMarketplace(server, admin);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const header = (page: Page) => page.locator('header.site-header');
const visibleIn = async (page: Page, name: string | RegExp, role: 'link' | 'button' = 'link') =>
  header(page).getByRole(role, { name, exact: typeof name === 'string' }).isVisible();

describe('shell: routes and header', () => {
  it('shows the 404 page for an unknown path', async () => {
    const { context, page } = await newPage(browser, server);
    await page.goto('/ovo-ne-postoji/123');
    await page.getByRole('heading', { name: '404 Greška' }).waitFor();
    await expect(page.getByText('Stranica koju tražite ne postoji!').isVisible()).resolves.toBe(true);
    // Home icon everywhere except /aukcije, /login, /registracija and /.
    await expect(visibleIn(page, 'Početna')).resolves.toBe(true);
    await context.close();
  });

  it('shows the per-route header buttons to a logged-out visitor', async () => {
    const { context, page } = await newPage(browser, server);
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await visibleIn(page, 'Uloguj se')).toBe(true);
    expect(await visibleIn(page, 'Registruj se')).toBe(true);
    expect(await visibleIn(page, 'Početna')).toBe(false);
    expect(await visibleIn(page, 'Postavi Aukciju')).toBe(false);

    await page.goto('/aukcije');
    await header(page).getByRole('link', { name: 'Postavi Aukciju' }).waitFor();
    expect(await visibleIn(page, 'Uloguj se')).toBe(true);
    expect(await visibleIn(page, 'Registruj se')).toBe(false);
    expect(await visibleIn(page, 'Početna')).toBe(false);

    await page.goto('/login');
    await page.getByRole('heading', { name: 'Prijavite se' }).waitFor();
    expect(await header(page).getByText('Nemaš nalog?').isVisible()).toBe(true);
    expect(await visibleIn(page, 'Registruj se')).toBe(true);
    await header(page).getByRole('link', { name: 'Registruj se' }).click();
    await page.getByRole('heading', { name: 'Registrujte se' }).waitFor();
    expect(await header(page).getByText('Imaš nalog?').isVisible()).toBe(true);
    expect(await visibleIn(page, 'Uloguj se')).toBe(true);

    await page.goto(`/aukcija/${market.auctionIds[0]}`);
    await header(page).getByRole('link', { name: 'Registruj se' }).waitFor();
    expect(await visibleIn(page, 'Početna')).toBe(true);
    expect(await visibleIn(page, 'Postavi Aukciju')).toBe(false);
    await context.close();
  });

  it('landing: carousel of popular auctions wraps, a card goes to /aukcije', async () => {
    const { context, page } = await newPage(browser, server);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Popularne aukcije' }).waitFor();
    const center = page.locator('.carousel__slot[data-position="center"]');
    await center.waitFor();
    expect(await page.locator('.carousel__slot[data-position="prev"]').count()).toBe(1);
    expect(await page.locator('.carousel__slot[data-position="next"]').count()).toBe(1);
    const first = await center.innerText();
    const n = await page.locator('.carousel__slot').count();
    expect(n).toBe(5);
    await page.getByRole('button', { name: 'Sledeća aukcija' }).click();
    expect(await center.innerText()).not.toBe(first);
    for (let i = 1; i < n; i++) await page.getByRole('button', { name: 'Sledeća aukcija' }).click();
    expect(await center.innerText()).toBe(first);
    await page.getByRole('button', { name: 'Prethodna aukcija' }).click();
    expect(await center.innerText()).not.toBe(first);
    await page.getByRole('link', { name: 'Pogledaj Aukcije' }).waitFor();
    expect(await page.getByRole('link', { name: 'Postavi Aukciju' }).getAttribute('href')).toBe('/nova-aukcija');
    await center.getByRole('button').click();
    await page.waitForURL(/\/aukcije$/);
    await context.close();
  });

  it('mobile 375 px: header fits, hides on scroll down and returns on scroll up; the user menu closes', async () => {
    const { context, page } = await newPage(browser, server, 375);
    const noSideScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    for (const p of ['/', '/aukcije', `/aukcija/${market.auctionIds[1]}`, '/login', '/registracija', '/nepostojeca']) {
      await page.goto(p);
      await header(page).getByRole('link', { name: 'Aukcije, idi na listu aukcija' }).waitFor();
      await settle(page);
      expect(await noSideScroll(), `horizontal scroll on ${p}`).toBe(true);
    }
    await login(page, market.seller);
    await header(page).getByRole('link', { name: 'Postavi Aukciju' }).waitFor();
    const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, win: window.innerWidth }));
    expect(widths.doc).toBeLessThanOrEqual(widths.win);
    const badge = page.getByTestId('unread-badge');
    await badge.waitFor();
    expect(await badge.innerText()).toBe('3');
    const box = await header(page).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);

    // The user menu: name and links, closes on an outside click and on Escape.
    const menuButton = header(page).getByRole('button', { name: 'Korisnički meni' });
    await menuButton.click();
    await header(page).getByText(market.seller.name).waitFor();
    expect(await header(page).getByRole('link', { name: 'Moje licitacije' }).getAttribute('title')).toBe('Predmeti na kojima sam licitirao');
    // Outside the panel: below it (the menu grew with each page it links to).
    const panel = await header(page).locator('.user-menu__panel').boundingBox();
    expect(panel && panel.y + panel.height < 700, 'the open menu fits the 740 px screen').toBe(true);
    await page.mouse.click(180, Math.min(730, panel!.y + panel!.height + 30));
    await expect(header(page).getByRole('link', { name: 'Profil' }).count()).resolves.toBe(0);
    await menuButton.click();
    await page.keyboard.press('Escape');
    await expect(header(page).getByRole('link', { name: 'Profil' }).count()).resolves.toBe(0);

    // Scroll: a long page, down → hidden, a little up → visible again.
    await page.goto('/');
    await page.getByRole('heading', { name: 'Popularne aukcije' }).waitFor();
    const hidden = () => header(page).evaluate((el) => el.classList.contains('site-header--hidden'));
    // (The exact 5 px / 4 px thresholds are covered by the component test.)
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect.poll(hidden, { timeout: 5000 }).toBe(true);
    await page.evaluate(() => window.scrollBy(0, -60));
    await expect.poll(hidden, { timeout: 5000 }).toBe(false);
    await context.close();
  });

  it('notifications: list, mark as read updates the list and the bell', async () => {
    const { context, page } = await newPage(browser, server);
    await login(page, market.seller);
    await header(page).getByRole('link', { name: /Notifikacije/ }).click();
    await page.getByRole('heading', { name: 'Moje notifikacije' }).waitFor();
    const buttons = page.getByRole('button', { name: 'Označi kao pročitano' });
    await buttons.first().waitFor();
    expect(await buttons.count()).toBe(3);
    // The message is markup: a link survives the sanitiser.
    expect(await page.locator('.notification__message a[href]').count()).toBeGreaterThan(0);
    await buttons.first().click();
    await expect.poll(() => buttons.count()).toBe(2);
    await expect.poll(() => page.getByTestId('unread-badge').innerText()).toBe('2');
    await context.close();
  });

  it('admin: login goes to the dashboard, deletes an auction after confirmation, blocks a user', async () => {
    const { context, page } = await newPage(browser, server);
    await login(page, market.admin, /\/admin\/dashboard$/);
    await page.getByRole('heading', { name: 'Sve aukcije' }).waitFor();
    const rows = page.locator('section[aria-labelledby="admin-auctions-title"] .admin-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(5);
    // Delete an auction that has bids (the seller could not, the admin can).
    const target = rows.filter({ hasText: 'Bicikl Capriolo' });
    await target.getByRole('button', { name: /Obriši/ }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Obriši aukciju' });
    await dialog.getByText('Da li ste sigurni da želite da obrišete ovu aukciju?').waitFor();
    await dialog.getByRole('button', { name: 'Otkaži' }).click();
    expect(await rows.count()).toBe(5);
    await target.getByRole('button', { name: /Obriši/ }).click();
    await dialog.getByRole('button', { name: 'Da' }).click();
    await page.getByText('Aukcija je obrisana.').waitFor();
    await expect.poll(() => rows.count()).toBe(4);

    await page.getByRole('tab', { name: 'Korisnici' }).click();
    const users = page.locator('section[aria-labelledby="admin-users-title"] .admin-row');
    const bidderRow = users.filter({ hasText: market.bidder.email });
    await bidderRow.getByRole('button', { name: /Blokiraj/ }).click();
    await bidderRow.getByText('Blokiran', { exact: true }).waitFor();
    await bidderRow.getByRole('button', { name: /Odblokiraj/ }).click();
    await expect.poll(() => bidderRow.getByText('Blokiran', { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('logout clears the user and goes to /aukcije', async () => {
    const user = makeUser('odjava');
    const { context, page } = await newPage(browser, server);
    await apiUser(server, user);
    await login(page, user);
    await page.goto('/profil');
    await page.getByRole('heading', { name: 'Korisnička stranica' }).waitFor();
    await header(page).getByRole('button', { name: 'Korisnički meni' }).click();
    await header(page).getByRole('button', { name: 'Odjava' }).click();
    await page.waitForURL(/\/aukcije$/);
    await header(page).getByRole('link', { name: 'Uloguj se' }).waitFor();
    expect(await header(page).getByRole('button', { name: 'Korisnički meni' }).count()).toBe(0);
    await page.goto('/profil');
    await page.waitForURL(/\/login$/);
    await context.close();
  });
});
