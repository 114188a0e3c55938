import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiAuction, apiBid, apiUser } from './support/api';
import { checkA11y, launchBrowser, login, makeUser, newPage, screenshot, type TestUser } from './support/browser';
import { startE2EServer, type E2EServer } from './support/server';

/**
 * Issue 24 in Chromium against the production build: a member reports an auction with bids through 'Prijavi' on
 * its detail page (the dialog, the reasons in Serbian, 'Drugo' needing a description); an admin finds it under
 * 'Prijave', resolves it with 'Obriši sadržaj'; the auction is gone for everyone and 'Dnevnik' shows the delete and
 * the resolution; the reporter's notification says the report was resolved without naming the admin.
 */

const TITLE = 'Lažni Rolex sa garancijom';

let server: E2EServer;
let browser: Browser;
let admin: TestUser;
let reporter: TestUser;
let auctionId: number;

beforeAll(async () => {
  admin = makeUser('admin');
  reporter = makeUser('prijavilac');
  server = await startE2EServer({ ADMIN_EMAILS: admin.email });
  browser = await launchBrowser();
  await apiUser(server, admin);
  await apiUser(server, reporter);
  const sellerApi = await apiUser(server, makeUser('prodavac'));
  auctionId = await apiAuction(sellerApi, { title: TITLE, price: 5000, color: '#30638e' });
  const bidderApi = await apiUser(server, makeUser('kupac'));
  await apiBid(bidderApi, auctionId, 6000);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('a report resolved by an admin', () => {
  it('member reports the auction; the admin deletes it from the queue; the log shows it', async () => {
    // The member, on a phone-sized screen.
    const m = await newPage(browser, server, 390);
    await login(m.page, reporter);
    await m.page.goto(`${server.url}/aukcija/${auctionId}`);
    await m.page.getByRole('heading', { name: TITLE }).waitFor();
    await m.page.getByRole('button', { name: 'Prijavi', exact: true }).click();
    const dialog = m.page.getByRole('dialog', { name: 'Prijavi aukciju' });
    await dialog.waitFor();
    for (const reason of ['Prevara', 'Zabranjen predmet', 'Pogrešna kategorija', 'Uvredljiv sadržaj', 'Neželjeni sadržaj (spam)', 'Drugo']) {
      await dialog.getByRole('radio', { name: reason }).waitFor();
    }
    // 'Kupac nije platio' is about a member only.
    expect(await dialog.getByRole('radio', { name: 'Kupac nije platio' }).count()).toBe(0);
    await dialog.getByRole('radio', { name: 'Drugo' }).check();
    await dialog.getByRole('button', { name: 'Pošalji prijavu' }).click();
    await dialog.getByText('Opišite razlog prijave.').waitFor();
    await dialog.getByRole('radio', { name: 'Prevara' }).check();
    await dialog.getByRole('textbox').fill('Falsifikat, prodavac traži uplatu unapred.');
    await checkA11y(m.page, 'report dialog');
    await dialog.getByRole('button', { name: 'Pošalji prijavu' }).click();
    await dialog.getByText('Prijava je poslata. Administrator će je pregledati.').waitFor();
    await screenshot(m.page, 'report-dialog-sent');
    await dialog.getByRole('button', { name: 'Zatvori' }).click();

    // The admin: the queue, the action, the log.
    const a = await newPage(browser, server);
    await login(a.page, admin, /\/admin\/dashboard$/);
    await a.page.getByRole('tab', { name: 'Prijave' }).click();
    const row = a.page.locator('.admin-report').filter({ hasText: TITLE });
    await row.waitFor();
    expect(await row.innerText()).toContain('Prevara');
    expect(await row.innerText()).toContain('Falsifikat, prodavac traži uplatu unapred.');
    await checkA11y(a.page, 'admin reports');
    await row.getByLabel('Napomena (nije obavezna)').fill('Falsifikat.');
    await row.getByRole('button', { name: 'Obriši sadržaj' }).click();
    await a.page.getByText('Prijava je zatvorena.').waitFor();
    // The open queue is empty now; the resolved one lists it with its target gone.
    await a.page.getByText('Nema prijava.').waitFor();
    await a.page.getByLabel('Status').selectOption('resolved');
    await a.page.locator('.admin-report').filter({ hasText: 'obrisano' }).waitFor();
    await a.page.getByRole('tab', { name: 'Dnevnik' }).click();
    const entries = a.page.getByTestId('audit-entry');
    await entries.first().waitFor();
    const log = await a.page.locator('section[aria-labelledby="admin-log-title"]').innerText();
    expect(log).toContain(`Obrisana aukcija · Aukcija #${auctionId}`);
    expect(log).toContain('Rešena prijava');
    expect(log).toContain('Falsifikat.');
    await screenshot(a.page, 'admin-audit-log');

    // Gone for everyone.
    await m.page.goto(`${server.url}/aukcija/${auctionId}`);
    await m.page.getByText(/ne postoji|nije pronađena/i).first().waitFor();
    const res = await fetch(`${server.url}/api/auction/${auctionId}/`);
    expect(res.status).toBe(404);
    // The reporter is told, without the admin's name.
    await m.page.goto(`${server.url}/notifikacije`);
    const notice = m.page.getByText(/Vaša prijava za aukciju/);
    await notice.waitFor();
    expect(await notice.innerText()).not.toContain(admin.name);
    await m.context.close();
    await a.context.close();
  });
});
