/**
 * XSS in the browser (issue 7 §6, ASVS 5.0 V1.2/V3.4): every payload of tests/security/xss-payloads.ts
 * (OWASP filter-evasion style, > 150) is stored in every user text — auction title, description, city;
 * user first_name and city; comments; notification messages (as the server makes them, and raw) — and
 * every page that shows them is opened in Debian Chromium: detail, list cards, landing, comments,
 * notifications, admin dashboard, profile, my auctions, the bid-history dialog, plus the server-rendered
 * <title>/Open Graph tags.
 *
 * The data goes straight into the database (many payloads per page keeps the page count small, and it
 * bypasses the form limits, so even payloads longer than a title may be are rendered). The context runs
 * with bypassCSP so that the CSP cannot hide an injection: each page must render the payloads as text,
 * call none of the trapped functions (`__xss`, alert, confirm, prompt; dialogs too), contact no foreign
 * host, and contain no injected handler, script, frame or javascript: URL. Every HTML answer must carry
 * the CSP (object-src 'none', base-uri, frame-ancestors). Quick: 10 detail pages; TEST_FULL=1: all.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/features/accounts/passwords';
import { notificationTexts } from '../../shared/texts/notifications';
import { sqliteDriver } from '../../server/db/sqlite-driver';
import { normaliseForSearch } from '@shared/rules/search';
import { XSS_PAYLOADS, XSS_TRAP } from '../security/xss-payloads';
import { launchBrowser } from './support/browser';
import { startE2EServer, type E2EServer } from './support/server';

const FULL = process.env.TEST_FULL === '1';
const P = XSS_PAYLOADS;
const N = P.length;
const VIEWER = { email: 'xss.posmatrac@example.com', password: 'Lozinka123' };
const COMMENTS_TITLE = 'Aukcija sa komentarima';

let server: E2EServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let commentsAuction = 0;
let clientDir = '';
const payloadAuctions: number[] = [];
const findings: string[] = [];
const documents: { url: string; csp: string | undefined }[] = [];
const pageErrors: string[] = [];

const iso = (ms: number) => new Date(ms).toISOString();
const squash = (s: string) => s.replace(/\s+/g, '');

function seed(db: Database.Database, hash: string) {
  const now = Date.now();
  const user = db.prepare(
    'INSERT INTO users (first_name, email, phone_number, city, password_hash, verified_at, is_admin, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const auction = db.prepare(
    `INSERT INTO auctions (seller_id, title, description, category, city, phone_number, starting_price, current_price, bid_count,
       end_date, original_end_date, status, search_text, created_at) VALUES (?, ?, ?, 'electronics', ?, '0641234567', 1000, ?, ?, ?, ?, 'active', ?, ?)`,
  );
  const comment = db.prepare('INSERT INTO comments (auction_id, user_id, content, created_at) VALUES (?, ?, ?, ?)');
  const bid = db.prepare('INSERT INTO bids (auction_id, bidder_id, amount, created_at) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    // The viewer's own name and city are payloads too: the header and the profile show them on every page.
    const viewer = Number(user.run(P[0].text, VIEWER.email, '0641234567', P[1].text, hash, iso(now), 1, iso(now)).lastInsertRowid);
    const users = P.map((p) => Number(user.run(p.text, `xss${p.n}@example.com`, '0641234567', p.text, hash, iso(now), 0, iso(now)).lastInsertRowid));
    const end = (i: number) => iso(now + 3 * 24 * 3600_000 + i * 60_000);
    commentsAuction = Number(auction.run(users[2], COMMENTS_TITLE, P[3].text, P[4].text, 1000 + 10 * N, N, end(-1), end(-1), normaliseForSearch(COMMENTS_TITLE), iso(now)).lastInsertRowid);
    P.forEach((p, i) => {
      comment.run(commentsAuction, users[i], p.text, iso(now - (N - i) * 1000));
      bid.run(commentsAuction, users[i], 1010 + 10 * i, iso(now - (N - i) * 1000));
      const id = Number(
        auction.run(viewer, p.text, P[(i + 1) % N].text, P[(i + 2) % N].text, 1000, 0, end(i), end(i), normaliseForSearch(p.text), iso(now)).lastInsertRowid,
      );
      payloadAuctions.push(id);
    });
    notificationsFor(db, viewer, 0);
  })();
}

let viewerId = 0;

/**
 * The viewer's notifications (the list shows the newest 200): payload i in a message the server makes
 * (title, author and excerpt escaped by shared/texts/notifications.ts) when i has parity `made`, otherwise
 * raw as the whole message — defence in depth, as if the server had forgotten to escape: DOMPurify must
 * still leave nothing that runs.
 */
function notificationsFor(db: Database.Database, viewer: number, made: 0 | 1) {
  viewerId = viewer;
  const note = db.prepare("INSERT INTO notifications (user_id, auction_id, kind, message, is_read, created_at) VALUES (?, ?, 'new_comment', ?, 0, ?)");
  const now = Date.now();
  db.transaction(() => {
    db.prepare('DELETE FROM notifications WHERE user_id = ?').run(viewer);
    P.forEach((p, i) => {
      const ref = { id: payloadAuctions[i], title: p.text };
      const message =
        i % 2 === made
          ? i % 4 < 2
            ? notificationTexts.newComment(ref, P[(i + 1) % N].text, P[(i + 2) % N].text)
            : notificationTexts.won(ref, 1500, P[(i + 1) % N].text, P[(i + 2) % N].text)
          : p.text;
      note.run(viewer, payloadAuctions[i], message, iso(now - i));
    });
  })();
}

/** Findings on the current page: trapped calls (all frames), injected markup. */
async function inspect(label: string, sink: string[] = findings): Promise<void> {
  await page.waitForTimeout(400); // onerror/onload/autofocus/animation handlers fire within this
  for (const frame of page.frames()) {
    const hits = (await frame.evaluate(() => (window as unknown as { __xssHits?: string[] }).__xssHits ?? []).catch(() => [])) as string[];
    for (const h of hits) sink.push(`${label}: executed ${h} (${frame.url().slice(0, 60)})`);
  }
  const injected = await page.evaluate(() => {
    const out: string[] = [];
    const bad = /^\s*(javascript|vbscript|data:text)/i;
    for (const el of Array.from(document.querySelectorAll('*'))) {
      const tag = el.tagName.toLowerCase();
      for (const a of Array.from(el.attributes)) {
        if (a.name.startsWith('on')) out.push(`<${tag} ${a.name}>`);
        if (/^(href|src|action|formaction|xlink:href|data|background|poster|srcdoc)$/.test(a.name) && (bad.test(a.value) || a.name === 'srcdoc')) out.push(`<${tag} ${a.name}=${a.value.slice(0, 40)}>`);
      }
      if (['iframe', 'frame', 'frameset', 'object', 'embed', 'base', 'isindex', 'keygen', 'marquee', 'xmp', 'plaintext', 'math'].includes(tag)) out.push(`<${tag}>`);
      if (tag === 'meta' && el.hasAttribute('http-equiv')) out.push('<meta http-equiv>');
      if (tag === 'script' && !/^\/assets\//.test(new URL((el as HTMLScriptElement).src || 'x:', location.href).pathname)) out.push(`<script> ${(el.textContent ?? '').slice(0, 40)}`);
    }
    return out;
  });
  for (const i of injected) sink.push(`${label}: injected ${i}`);
}

/** Opens `url`, waits for `ready`, checks that the payload texts of `visible` are shown as text. */
async function visit(url: string, ready: () => Promise<unknown>, visible: number[] = [], minShare = 0.9): Promise<void> {
  await page.goto(url, { waitUntil: 'load' });
  await ready();
  if (visible.length) {
    const text = squash(await page.evaluate(() => document.body.innerText));
    const shown = visible.filter((i) => text.includes(squash(P[i].text)));
    expect(shown.length / visible.length, `${url}: payloads shown as text (${shown.length}/${visible.length})`).toBeGreaterThanOrEqual(minShare);
  }
  await inspect(url);
}

/**
 * A private copy of the built client (CLIENT_DIR), taken once its index.html and every asset it names
 * exist: the working tree is shared, and a rebuild in the middle of this suite must not change the pages.
 */
async function stableClientCopy(): Promise<string> {
  const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/client');
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const html = fs.readFileSync(path.join(src, 'index.html'), 'utf8');
      const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
      if (assets.length && assets.every((a) => fs.existsSync(path.join(src, a)))) {
        const dest = fs.mkdtempSync(path.join(os.tmpdir(), 'aukcije-xss-client-'));
        fs.cpSync(src, dest, { recursive: true });
        if (assets.every((a) => fs.existsSync(path.join(dest, a)))) return dest;
      }
    } catch {
      // being rebuilt: try again
    }
    if (Date.now() > deadline) throw new Error('dist/client nije stabilan: pokrenite `node scripts/build.mjs`');
    await new Promise((r) => setTimeout(r, 500));
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

beforeAll(async () => {
  clientDir = await stableClientCopy();
  server = await startE2EServer({ CLIENT_DIR: clientDir });
  const db = new (sqliteDriver())(path.join(server.dataDir, 'aukcije.sqlite'));
  db.pragma('busy_timeout = 10000');
  seed(db, await hashPassword(VIEWER.password));
  db.close();

  browser = await launchBrowser();
  context = await browser.newContext({ baseURL: server.url, locale: 'sr-Latn-RS', timezoneId: 'Europe/Belgrade', bypassCSP: true, viewport: { width: 1280, height: 900 } });
  await context.addInitScript({ content: XSS_TRAP });
  await context.route(/^(?!http:\/\/127\.0\.0\.1)/, (route) => {
    const u = route.request().url();
    if (!/^(data|blob):/.test(u) && !/accounts\.google\.com/.test(u)) findings.push(`request to a foreign host: ${u.slice(0, 80)}`);
    return route.abort();
  });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`${page.url()}: console: ${m.text().slice(0, 300)}`);
  });
  page.on('dialog', (d) => {
    findings.push(`dialog ${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on('response', (res) => {
    if (res.request().resourceType() === 'document') documents.push({ url: res.url(), csp: res.headers()['content-security-policy'] });
  });
  const token = await (await context.request.get('/api/csrf/')).json();
  const login = await context.request.post('/api/login/', { data: VIEWER, headers: { 'X-CSRFToken': token.csrftoken, Origin: server.url } });
  expect(login.status(), await login.text()).toBe(200);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (clientDir) fs.rmSync(clientDir, { recursive: true, force: true });
});

describe(`${N} XSS payloads in every user text and every page that shows it`, () => {
  it('has at least 150 distinct payloads', () => {
    expect(N).toBeGreaterThanOrEqual(150);
    expect(new Set(P.map((p) => p.text)).size).toBe(N);
  });

  it('self-test: the traps see a payload that runs and markup that was injected', async () => {
    await page.goto('/', { waitUntil: 'load' });
    await page.evaluate(() => {
      const div = document.createElement('div');
      div.innerHTML = '<img src=x onerror="__xss(9001)"><a href="javascript:alert(9002)">x</a>';
      document.body.append(div);
      window.alert(9003);
    });
    const seen: string[] = [];
    await inspect('self-test', seen);
    expect(seen.join('\n')).toContain('__xss:9001');
    expect(seen.join('\n')).toContain('alert:9003');
    expect(seen.join('\n')).toContain('<img onerror>');
    expect(seen.join('\n')).toContain('<a href=javascript:alert(9002)>');
  });

  it('auction detail: every payload as a comment and as its author, seller name, description, city', async () => {
    await visit(
      `/aukcija/${commentsAuction}`,
      async () => {
        await page.getByRole('heading', { name: COMMENTS_TITLE }).waitFor();
        await expect.poll(() => page.locator('li.comment').count(), { timeout: 20_000 }).toBe(N);
      },
      range(0, N),
      0.95,
    );
  });

  it('bid history dialog: every payload as a bidder name', async () => {
    await page.goto(`/aukcija/${commentsAuction}`, { waitUntil: 'load' });
    await page.getByRole('heading', { name: COMMENTS_TITLE }).waitFor();
    await page.locator('button.detail__bids-link').click();
    await expect.poll(() => page.locator('.bid-history__item').count(), { timeout: 20_000 }).toBe(N);
    const names = squash((await page.locator('.bid-history__name').allInnerTexts()).join(''));
    const shown = P.filter((p) => names.includes(squash(p.text))).length;
    expect(shown / N).toBeGreaterThanOrEqual(0.95);
    await inspect('bid history');
    await page.keyboard.press('Escape');
  });

  it('auction list cards: every payload as a title (all pages)', async () => {
    const pages = Math.ceil((N + 1) / 20);
    for (let p = 1; p <= pages; p++) {
      const first = (p - 1) * 20;
      await visit(`/aukcije?page=${p}`, () => page.locator('.auction-card__title').first().waitFor(), range(Math.max(0, first - 1), Math.min(N, first + 19)), 0.9);
    }
  });

  it('landing page', async () => {
    await visit('/', () => page.locator('main').waitFor());
  });

  it(`auction detail pages with payload title, description and city (${FULL ? 'all' : 'quick: 10'})`, async () => {
    const ids = FULL ? payloadAuctions.map((_, i) => i) : range(0, 10).map((i) => Math.floor((i * N) / 10));
    for (const i of ids) {
      const ready = async () => {
        await page.locator('main h1').first().waitFor({ timeout: 10_000 }).catch(async () => {
          throw new Error(`payload ${P[i].n} auction ${payloadAuctions[i]}: no heading; page says: ${(await page.evaluate(() => document.body.innerText)).slice(0, 300)}; errors: ${pageErrors.slice(-5).join(' | ')}`);
        });
      };
      await visit(`/aukcija/${payloadAuctions[i]}`, ready, [i, (i + 1) % N], 1);
    }
  }, FULL ? 900_000 : 120_000);

  it('server-rendered <title> and Open Graph tags of every payload auction add no markup', async () => {
    const count = (html: string) => (html.match(/<(script|img|svg|iframe|object|embed|base|style|link|meta|a)\b/gi) ?? []).length;
    const baseline = await (await fetch(`${server.url}/aukcija/${commentsAuction}`)).text();
    for (const id of payloadAuctions) {
      const html = await (await fetch(`${server.url}/aukcija/${id}`)).text();
      expect(count(html), `auction ${id}`).toBe(count(baseline));
      expect(html.match(/<title>/g)?.length).toBe(1);
    }
  });

  it('notifications page: every payload in a server-made message and as a raw message', async () => {
    for (const made of [0, 1] as const) {
      const db = new (sqliteDriver())(path.join(server.dataDir, 'aukcije.sqlite'));
      db.pragma('busy_timeout = 10000');
      notificationsFor(db, viewerId, made);
      db.close();
      // Server-made messages show the payload title (and author, excerpt) as text.
      const madeOnes = range(0, N).filter((i) => i % 2 === made);
      await visit(
        '/notifikacije',
        () => expect.poll(() => page.locator('.notification__message').count(), { timeout: 20_000 }).toBe(N),
        madeOnes,
        0.95,
      );
    }
  });

  it('admin dashboard: every payload as a user name and city; auction table', async () => {
    // Auctions tab: its first page (latest end first: the last payloads' titles). Users tab: 20 a page, so
    // every page, then the share.
    await visit('/admin/dashboard', () => page.locator('#admin-auctions-title .admin-section__count').waitFor(), range(N - 18, N), 0.9);
    let text = '';
    for (let p = 1; p <= Math.ceil((N + 1) / 20); p++) {
      await visit(`/admin/dashboard?tab=korisnici&page=${p}`, () => page.locator('#admin-users-title .admin-section__count').waitFor());
      text += squash(await page.evaluate(() => document.body.innerText));
    }
    const shown = range(0, N).filter((i) => text.includes(squash(P[i].text)));
    expect(shown.length / N, `users pages: payloads shown as text (${shown.length}/${N})`).toBeGreaterThanOrEqual(0.9);
  });

  it('profile, my auctions, my bids, watched auctions', async () => {
    await visit('/profil', () => page.locator('main').waitFor());
    await visit('/moje-aukcije', () => page.locator('.auction-card__title').first().waitFor(), range(0, 10), 0.9);
    await visit('/moje-licitacije', () => page.locator('main').waitFor());
    const db = new (sqliteDriver())(path.join(server.dataDir, 'aukcije.sqlite'));
    db.pragma('busy_timeout = 10000');
    const watch = db.prepare('INSERT INTO watchlist (user_id, auction_id, created_at) VALUES (?, ?, ?)');
    for (const id of payloadAuctions.slice(0, 10)) watch.run(viewerId, id, iso(Date.now()));
    db.close();
    await visit('/pracene', () => page.locator('.auction-card__title').first().waitFor(), range(0, 10), 0.9);
  });

  it('sales and member profiles (issue 23): payloads as titles, names, cities, rating comments and answers', async () => {
    // The viewer sold 20 auctions (payload titles) to payload-named users; each rated the viewer with a payload
    // comment the viewer answered with a payload, and the viewer rated them back.
    const db = new (sqliteDriver())(path.join(server.dataDir, 'aukcije.sqlite'));
    db.pragma('busy_timeout = 10000');
    const now = Date.now();
    const buyerOf = (i: number) => Number((db.prepare('SELECT id FROM users WHERE email = ?').get(`xss${P[i].n}@example.com`) as { id: number }).id);
    const sold = db.prepare(
      `INSERT INTO auctions (seller_id, title, description, category, city, phone_number, starting_price, current_price, bid_count,
         end_date, original_end_date, status, winner_id, search_text, created_at, closed_at) VALUES (?, ?, 'opis', 'electronics', 'Beograd', '0641234567', 1000, 1500, 1, ?, ?, 'ended', ?, 'x', ?, ?)`,
    );
    const rating = db.prepare(
      `INSERT INTO ratings (auction_id, auction_title, rater_id, rated_id, role, value, comment, created_at, reply_content, reply_created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (const i of range(0, 20)) {
        const at = iso(now - 60_000 - i * 1000);
        const buyer = buyerOf(i);
        const id = Number(sold.run(viewerId, P[i].text, at, at, buyer, iso(now - 86_400_000), at).lastInsertRowid);
        rating.run(id, P[i].text, buyer, viewerId, 'seller', i % 2 ? 'negative' : 'positive', P[(i + 1) % N].text, at, P[(i + 2) % N].text, at);
        rating.run(id, P[i].text, viewerId, buyer, 'buyer', 'positive', P[(i + 3) % N].text, at, null, null);
      }
    })();
    const fourth = buyerOf(4);
    db.close();
    await visit('/moje-prodaje', () => page.locator('.sale').first().waitFor(), range(0, 20), 0.9);
    await visit(`/clan/${viewerId}`, () => page.locator('.member__ratings').waitFor(), range(1, 21), 0.9);
    await visit(`/clan/${fourth}`, () => page.locator('.member__ratings').waitFor(), [4, 7], 1);
  });

  it('nothing executed, nothing injected, nothing sent abroad', () => {
    expect(findings).toEqual([]);
  });

  it('every HTML answer carries the CSP (object-src none, base-uri, frame-ancestors)', async () => {
    for (const p of ['/', '/aukcije', `/aukcija/${payloadAuctions[0]}`, '/nepostojeca-strana', '/admin/dashboard', '/login']) {
      const res = await fetch(server.url + p);
      expect(res.headers.get('content-type'), p).toMatch(/text\/html/);
      documents.push({ url: p, csp: res.headers.get('content-security-policy') ?? undefined });
    }
    expect(documents.length).toBeGreaterThan(10);
    for (const d of documents) {
      expect(d.csp, d.url).toMatch(/object-src 'none'/);
      expect(d.csp, d.url).toMatch(/base-uri 'none'/);
      expect(d.csp, d.url).toMatch(/frame-ancestors '(none|self)'/);
      expect(d.csp, d.url).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    }
  });
});
