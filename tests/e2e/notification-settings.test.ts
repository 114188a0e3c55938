import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { parseEml } from '../support/eml';
import { startE2EServer, type E2EServer } from './support/server';
import { checkA11y, launchBrowser, login, makeUser, newPage, screenshot } from './support/browser';
import { apiAuction, apiBid, apiUser } from './support/api';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Issue 27 in Chromium: the settings page /podesavanja-obavestenja reached from the user menu and the profile,
 * on a phone-width screen; a kind turned off there stays off; and the one-click unsubscribe link of a real
 * outbid mail (read from the outbox) confirms with its button in the browser and shows up on the settings page.
 */

let server: E2EServer;
let browser: Browser;
const ana = makeUser('ana');
const bob = makeUser('bob');
const seller = makeUser('prodavac');

const LABELS = [
  'Vaša ponuda je nadmašena',
  'Pobedili ste na aukciji',
  'Vaša aukcija je završena',
  'Rezervna cena nije dostignuta',
  'Aukcija se uskoro završava',
  'Dobili ste novu ocenu',
  'Vaša prijava je rešena',
  'Nove aukcije za sačuvanu pretragu',
];

describe('Podešavanja obaveštenja in the browser', () => {
  beforeAll(async () => {
    server = await startE2EServer({ MAIL_POLL_SECONDS: '0.2' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('is reached from the user menu and the profile; a kind turned off stays off after a reload', async () => {
    await apiUser(server, ana);
    const { page, context } = await newPage(browser, server, 390);
    await login(page, ana);
    await page.getByRole('button', { name: /meni/i }).first().click();
    await page.getByRole('link', { name: 'Podešavanja obaveštenja' }).click();
    await page.waitForURL(/\/podesavanja-obavestenja$/);
    await page.getByRole('heading', { name: 'Podešavanja obaveštenja' }).waitFor();
    for (const label of LABELS) expect(await page.getByLabel(label).isChecked(), label).toBe(true);
    await checkA11y(page, 'settings');
    await page.getByLabel('Vaša ponuda je nadmašena').uncheck();
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/notification-settings/') && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Sačuvaj' }).click();
    expect((await saved).status()).toBe(200);
    await page.getByText('Podešavanja su sačuvana.').waitFor();
    await screenshot(page, 'notification-settings-mobile');
    await page.reload();
    await page.getByRole('heading', { name: 'Podešavanja obaveštenja' }).waitFor();
    await page.getByLabel('Dobili ste novu ocenu').waitFor();
    expect(await page.getByLabel('Vaša ponuda je nadmašena').isChecked()).toBe(false);
    expect(await page.getByLabel('Pobedili ste na aukciji').isChecked()).toBe(true);
    await page.goto('/profil');
    await page.getByRole('link', { name: 'Podešavanja obaveštenja' }).click();
    await page.waitForURL(/\/podesavanja-obavestenja$/);
    await context.close();
  });

  it("an outbid mail's unsubscribe link confirms with its button, and the settings page shows the kind off", async () => {
    const [sellerApi, bobApi] = await Promise.all([apiUser(server, seller), apiUser(server, bob)]);
    const carla = makeUser('karla');
    const carlaApi = await apiUser(server, carla);
    const id = await apiAuction(sellerApi, { title: 'Gramofon Technics' });
    await apiBid(bobApi, id, 1510);
    await apiBid(carlaApi, id, 1600);
    await server.waitForMail(bob.email, 'Gramofon Technics');
    const file = server.outbox().find((m) => m.text.includes(bob.email) && m.text.includes('Gramofon'))!.file;
    const mail = parseEml(fs.readFileSync(path.join(server.dataDir, 'outbox', file), 'utf8'));
    expect(mail.headers.get('subject')).toBe('Aukcije: Vaša ponuda je nadmašena: Gramofon Technics');
    const link = /^<(.+)>$/.exec(mail.headers.get('list-unsubscribe') ?? '')![1]!;

    const { page, context } = await newPage(browser, server, 390);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Odjava od obaveštenja e-poštom' }).waitFor();
    await page.getByRole('button', { name: 'Odjavi me' }).click();
    await page.getByText('Odjavljeni ste.').waitFor();
    await login(page, bob);
    await page.goto('/podesavanja-obavestenja');
    await page.getByLabel('Dobili ste novu ocenu').waitFor();
    expect(await page.getByLabel('Vaša ponuda je nadmašena').isChecked()).toBe(false);
    await context.close();
  });
});
