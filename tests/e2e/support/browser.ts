import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { E2EServer } from './server';
import { linkFrom } from './server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SCREENSHOT_DIR = path.join(root, 'artifacts/screenshots');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

/** A fresh context (own cookies) at the given width; Serbian locale, Belgrade time. */
export async function newPage(browser: Browser, server: E2EServer, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width, height: width < 600 ? 740 : 860 },
    locale: 'sr-Latn-RS',
    timezoneId: 'Europe/Belgrade',
    deviceScaleFactor: 1,
    // axe-core is injected as an inline script; the app's CSP would (rightly) refuse it.
    bypassCSP: true,
  });
  // Only our own server: anything else (e.g. Google's script) is refused, so tests never leave 127.0.0.1.
  await context.route(/^(?!http:\/\/127\.0\.0\.1)/, (route) => route.abort());
  const page = await context.newPage();
  // Generous: the test machine is shared and often loaded; a timeout here means broken, not slow.
  page.setDefaultTimeout(30_000);
  return { context, page };
}

/**
 * Waits briefly for the network to go quiet. Bounded: live connections (socket.io polling) may keep the
 * network busy, and that must not fail a test.
 */
export async function settle(page: Page, ms = 3000): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: ms }).catch(() => undefined);
}

/** artifacts/screenshots/<name>-<width>.png (full page). */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const file = path.join(SCREENSHOT_DIR, `${name}-${width}.png`);
  // Let lazy images and fonts settle; a screenshot of a half-drawn page helps nobody.
  await settle(page);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

const AXE = fs.readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core on the page; fails on serious or critical violations. */
export async function checkA11y(page: Page, label = page.url()): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: unknown[] }> } }).axe;
    const res = await axe.run(document, { resultTypes: ['violations'] });
    return res.violations;
  })) as AxeViolation[];
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad.map((v) => `${v.impact} ${v.id}: ${v.help} @ ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`);
  expect(report, `axe violations on ${label}`).toEqual([]);
}

export interface TestUser {
  name: string;
  email: string;
  phone: string;
  password: string;
}

let seq = 0;
export function makeUser(prefix = 'korisnik'): TestUser {
  seq += 1;
  const id = `${Date.now().toString(36)}${seq}`;
  return { name: `Petar Petrović ${seq}`, email: `${prefix}.${id}@primer.rs`, phone: `06412345${String(seq).padStart(2, '0')}`, password: `Lozinka${seq}23` };
}

/** Fills the registration form, waits for the success dialog, then follows the verification link. */
export async function registerAndVerify(page: Page, server: E2EServer, user: TestUser): Promise<void> {
  await page.goto('/registracija');
  await page.getByRole('heading', { name: 'Registrujte se' }).waitFor();
  await page.getByLabel('Ime i prezime').fill(user.name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Broj telefona').fill(user.phone);
  await page.getByLabel('Lozinka', { exact: true }).fill(user.password);
  await page.getByLabel('Potvrda lozinke').fill(user.password);
  await page.getByRole('button', { name: 'Registruj se' }).last().click();
  await page.getByRole('dialog', { name: 'Uspešna registracija!' }).waitFor();
  const mail = await server.waitForMail(user.email, '/api/verify/');
  await page.goto(linkFrom(mail, '/api/verify/'));
  await page.waitForURL(/\/login\?verified=/);
}

/** Logs in through the form and waits for the redirect to /aukcije (or a given path). */
export async function login(page: Page, user: Pick<TestUser, 'email' | 'password'>, expectPath: RegExp = /\/aukcije$/): Promise<void> {
  await page.goto('/login');
  await page
    .getByRole('heading', { name: 'Prijavite se' })
    .waitFor()
    .catch(async (err) => {
      await screenshot(page, 'failed-login-page').catch(() => undefined);
      throw new Error(`login page did not render (${page.url()}): ${String(err)}\n${(await page.locator('body').innerText().catch(() => '')).slice(0, 500)}`);
    });
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Lozinka', { exact: true }).fill(user.password);
  await page.locator('form').getByRole('button', { name: 'Uloguj se' }).click();
  await page.getByText('Uspesno ste se ulogovali!').waitFor();
  await page.waitForURL(expectPath, { timeout: 20_000 });
}
