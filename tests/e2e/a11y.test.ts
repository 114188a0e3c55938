import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { checkA11y, launchBrowser, login, newPage, screenshot, settle } from './support/browser';
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

const ready: Record<string, string> = {
  '/': 'Popularne aukcije',
  '/aukcije': '',
  '/login': 'Prijavite se',
  '/registracija': 'Registrujte se',
};

describe('accessibility (axe-core) and screenshots', () => {
  for (const width of [1280, 375]) {
    it(`public pages at ${width} px: no serious or critical axe violations`, async () => {
      const { context, page } = await newPage(browser, server, width);
      for (const [path, heading] of Object.entries(ready)) {
        await page.goto(path);
        if (heading) await page.getByRole('heading', { name: heading }).waitFor();
        else await page.locator('main h1, main [role="status"]').first().waitFor();
        await settle(page);
        await checkA11y(page, `${path} @ ${width}`);
        if (path !== '/aukcije') await screenshot(page, path === '/' ? 'landing' : path.slice(1));
      }
      await context.close();
    });

    it(`logged-in pages at ${width} px: screenshots and axe`, async () => {
      const { context, page } = await newPage(browser, server, width);
      await login(page, market.seller);
      await page.goto('/profil');
      await page.getByRole('heading', { name: 'Korisnička stranica' }).waitFor();
      await checkA11y(page, `/profil @ ${width}`);
      await screenshot(page, 'profil');
      await page.goto('/notifikacije');
      await page.getByRole('button', { name: 'Označi kao pročitano' }).first().waitFor();
      await checkA11y(page, `/notifikacije @ ${width}`);
      await screenshot(page, 'notifikacije');
      await page.goto('/promena-lozinke');
      await page.getByRole('heading', { name: 'Promena lozinke' }).waitFor();
      await checkA11y(page, `/promena-lozinke @ ${width}`);
      await screenshot(page, 'promena-lozinke');
      await page.goto('/nepostojeca');
      await page.getByRole('heading', { name: '404 Greška' }).waitFor();
      await screenshot(page, '404');
      await context.close();

      const admin = await newPage(browser, server, width);
      await login(admin.page, market.admin, /\/admin\/dashboard$/);
      await admin.page.locator('.admin-row').first().waitFor();
      await checkA11y(admin.page, `/admin/dashboard @ ${width}`);
      await screenshot(admin.page, 'admin-dashboard');
      await admin.context.close();
    });
  }
});
