import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startE2EServer, type E2EServer } from './support/server';
import { checkA11y, launchBrowser, login, makeUser, newPage, registerAndVerify, screenshot, type TestUser } from './support/browser';

/**
 * The marketplace journey in Chromium against the production build: a seller creates an auction with two
 * reordered images, a second user bids, the seller is notified, comments come and go, the admin deletes,
 * and the list keeps search and paging in the URL.
 */

const ADMIN_EMAIL = `admin.${Date.now().toString(36)}@primer.rs`;

let server: E2EServer;
let browser: Browser;
let seller: { user: TestUser; context: BrowserContext; page: Page };
let bidder: { user: TestUser; context: BrowserContext; page: Page };
let auctionId = 0;
const TITLE = 'Vintage bicikl Rog';
const DESCRIPTION =
  'Očuvan gradski bicikl iz osamdesetih, nove gume i sedište, redovno servisiran. Preuzimanje u Beogradu ili slanje kurirskom službom. <script>alert(1)</script>';

const png = (r: number, g: number, b: number) =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: { r, g, b } } }).png().toBuffer();

/** The average colour of an image served by our /media. */
async function colourOf(url: string): Promise<{ r: number; g: number; b: number }> {
  const buf = Buffer.from(await (await fetch(url)).arrayBuffer());
  const { channels } = await sharp(buf).stats();
  return { r: channels[0].mean, g: channels[1].mean, b: channels[2].mean };
}

async function csrf(context: BrowserContext): Promise<string> {
  const c = (await context.cookies()).find((x) => x.name === 'csrftoken');
  if (!c) throw new Error('no csrftoken cookie');
  return c.value;
}

/** Creates an auction through the API with the context's session (fast setup for list checks). */
async function apiCreateAuction(context: BrowserContext, title: string, colour: [number, number, number] = [40, 160, 90]): Promise<number> {
  const token = await csrf(context);
  const res = await context.request.post('/api/auctionItems/', {
    headers: { 'X-CSRFToken': token },
    multipart: {
      title,
      description: `Opis za ${title} sa dovoljno reči da se vidi skraćivanje opisa na kartici aukcije`,
      current_price: '1500',
      auction_duration: '7',
      city: 'Subotica',
      phone_number: '0601234567',
      category: 'electronics',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  {
    const img = await png(...colour);
    const up = await context.request.post(`/api/auction-items/${id}/images/`, {
      headers: { 'X-CSRFToken': token },
      multipart: { image: { name: 'slika.png', mimeType: 'image/png', buffer: img } },
    });
    expect(up.status(), await up.text()).toBe(201);
  }
  return id;
}

async function userSession(prefix: string, email?: string): Promise<{ user: TestUser; context: BrowserContext; page: Page }> {
  const { context, page } = await newPage(browser, server);
  const user = { ...makeUser(prefix), ...(email ? { email } : {}) };
  await registerAndVerify(page, server, user);
  return { user, context, page };
}

describe('marketplace in the browser', () => {
  beforeAll(async () => {
    server = await startE2EServer({ ADMIN_EMAILS: ADMIN_EMAIL, SOFT_CLOSE_SECONDS: '0' });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a seller creates an auction with two images in the chosen order', async () => {
    seller = await userSession('prodavac');
    const { page } = seller;
    await login(page, seller.user);
    await page.goto('/nova-aukcija');
    await page.getByRole('heading', { name: 'Nova aukcija' }).waitFor();
    // Phone comes from the account; registration has no city.
    await expect.poll(() => page.getByLabel('Broj telefona').inputValue()).toBe(seller.user.phone);

    // The form's own messages first.
    await page.getByRole('button', { name: 'Postavi aukciju' }).click();
    await page.getByText('Naslov je obavezan.').waitFor();
    await page.getByText('Morate odabrati barem jednu sliku.').waitFor();

    await page.getByLabel('Naslov').fill(TITLE);
    expect(await page.getByText('Naslov je obavezan.').count()).toBe(0);
    await page.getByLabel('Opis', { exact: true }).fill(DESCRIPTION);
    await page.getByLabel('Početna cena (din)').fill('2000');
    await page.getByLabel('Trajanje aukcije').selectOption('3');
    await page.getByLabel('Grad').fill('Beograd');
    await page.getByLabel('Kategorija').selectOption('sports');
    await page.getByLabel('Slike (do 6, najviše 6 MB svaka)').setInputFiles([
      { name: 'crvena.png', mimeType: 'image/png', buffer: await png(220, 20, 20) },
      { name: 'plava.png', mimeType: 'image/png', buffer: await png(20, 40, 220) },
    ]);
    const previews = page.getByTestId('image-preview');
    await expect.poll(() => previews.count()).toBe(2);
    // Blue becomes the cover: first by keyboard (move button), then back and forth by drag and drop.
    await page.getByRole('button', { name: 'Pomeri sliku 2 napred' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => previews.first().getAttribute('data-name')).toBe('plava.png');
    await previews.nth(1).dragTo(previews.nth(0));
    await expect.poll(() => previews.first().getAttribute('data-name')).toBe('crvena.png');
    await previews.nth(1).dragTo(previews.nth(0));
    await expect.poll(() => previews.first().getAttribute('data-name')).toBe('plava.png');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'nova-aukcija');
    await checkA11y(page, '/nova-aukcija');

    await page.getByRole('button', { name: 'Postavi aukciju' }).click();
    const done = page.getByRole('dialog', { name: 'Čestitamo!' });
    await done.waitFor();
    expect(await done.textContent()).toContain('Uspešno ste postavili aukciju.');
    await page.waitForURL(/\/aukcije$/, { timeout: 8_000 });

    const list = (await (await fetch(`${server.url}/api/my-auctions/?page=1`, { headers: { cookie: await cookieHeader(seller.context) } })).json()) as {
      results: { id: number; title: string }[];
    };
    auctionId = list.results.find((a) => a.title === TITLE)!.id;
    expect(auctionId).toBeGreaterThan(0);
    const detail = (await (await fetch(`${server.url}/api/auction/${auctionId}/`)).json()) as { images: { image: string }[]; current_price: number };
    expect(detail.images).toHaveLength(2);
    expect(detail.current_price).toBe(2000);
    const first = await colourOf(`${server.url}${detail.images[0].image}`);
    const second = await colourOf(`${server.url}${detail.images[1].image}`);
    expect(first.b).toBeGreaterThan(first.r);
    expect(second.r).toBeGreaterThan(second.b);

    // The seller sees no bid box on the own auction.
    await page.goto(`/aukcija/${auctionId}`);
    await page.getByRole('heading', { name: TITLE }).waitFor();
    expect(await page.getByRole('button', { name: 'Licitiraj' }).count()).toBe(0);
  });

  it('an image the server refuses removes the just-created auction and keeps the form', async () => {
    const { page } = seller;
    const before = await myAuctionCount(seller.context);
    await page.goto('/nova-aukcija');
    await page.getByLabel('Naslov').fill('Lažna slika');
    await page.getByLabel('Opis', { exact: true }).fill('Ovo ne sme ostati bez slike.');
    await page.getByLabel('Početna cena (din)').fill('300');
    await page.getByLabel('Grad').fill('Kragujevac');
    await page.getByLabel('Kategorija').selectOption('other');
    // Looks like a PNG to the browser, but its content is not an image: the server refuses it.
    await page.getByLabel('Slike (do 6, najviše 6 MB svaka)').setInputFiles([
      { name: 'lazna.png', mimeType: 'image/png', buffer: Buffer.from('ovo nije slika, samo tekst') },
    ]);
    await page.getByRole('button', { name: 'Postavi aukciju' }).click();
    const failure = page.locator('.create-page__failure');
    await failure.waitFor();
    expect(await failure.textContent()).toMatch(/^Greška pri dodavanju slika: /);
    // Back to editing with the user's input kept, and no auction without images left behind.
    expect(await page.getByLabel('Naslov').inputValue()).toBe('Lažna slika');
    expect(await page.getByRole('button', { name: 'Postavi aukciju' }).isEnabled()).toBe(true);
    expect(await myAuctionCount(seller.context)).toBe(before);
  });

  it('shares Open Graph metadata of the auction in the HTML', async () => {
    const html = await (await fetch(`${server.url}/aukcija/${auctionId}`)).text();
    expect(html).toContain(`<meta property="og:title" content="${TITLE}" />`);
    expect(html).toContain(`<title>${TITLE} | Aukcije</title>`);
    expect(html).toContain(`<meta property="og:url" content="${server.url}/aukcija/${auctionId}" />`);
    expect(html).toMatch(new RegExp(`<meta property="og:image" content="${server.url}/media/[^"]+"`));
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)</script>');
    const plain = await (await fetch(`${server.url}/aukcija/999999`)).text();
    expect(plain).not.toContain('og:title');
  });

  it('a second user bids: minimum, confirmation, confetti and success, new price', async () => {
    bidder = await userSession('kupac');
    const { page } = bidder;
    // A visitor who tries to bid goes to the login page.
    await page.goto(`/aukcija/${auctionId}`);
    await page.getByLabel('Vaša ponuda (din)').fill('5000');
    await page.getByRole('button', { name: 'Licitiraj' }).click();
    await page.waitForURL(/\/login$/);

    await login(page, bidder.user);
    await page.goto(`/aukcija/${auctionId}`);
    await page.getByText('Završava se za:').waitFor();
    expect(await page.getByTestId('current-price').textContent()).toBe('2.000 RSD');
    await page.getByRole('button', { name: 'Licitiraj' }).click();
    await page.getByText('Minimalna ponuda je 2010 din').waitFor();
    await page.getByLabel('Vaša ponuda (din)').fill('2005');
    await page.getByRole('button', { name: 'Licitiraj' }).click();
    await page.getByText('Minimalna ponuda je 2010 din').waitFor();

    await page.getByLabel('Vaša ponuda (din)').fill('2500');
    await page.getByRole('button', { name: 'Licitiraj' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Potvrdi licitaciju' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('Da li ste sigurni da želite da licitirate 2500 dinara za ovu aukciju?');
    await confirm.getByRole('button', { name: 'Da' }).click();

    const success = page.getByRole('dialog', { name: 'Čestitamo!' });
    await success.waitFor();
    expect(await success.textContent()).toContain('Uspesna licitacija!');
    // canvas-confetti draws on a canvas it adds to the body.
    await expect.poll(() => page.locator('body > canvas').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('current-price').textContent()).toBe('2.500 RSD');
    await page.getByRole('button', { name: 'Broj ponuda: 1' }).waitFor();
    expect(await page.getByLabel('Vaša ponuda (din)').inputValue()).toBe('');
    // The success dialog closes by itself after 4 s.
    await success.waitFor({ state: 'detached', timeout: 6_000 });

    // The server really has the bid.
    const detail = (await (await fetch(`${server.url}/api/auction/${auctionId}/`)).json()) as { current_price: number; bid_count: number };
    expect(detail).toMatchObject({ current_price: 2500, bid_count: 1 });

    await page.getByRole('button', { name: 'Broj ponuda: 1' }).click();
    const history = page.getByRole('dialog', { name: `Ponude za ${TITLE}` });
    await history.getByText('2.500 Din.').waitFor();
    expect(await history.textContent()).toContain(bidder.user.name);
    expect(await history.textContent()).toMatch(/\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}/);
    await page.keyboard.press('Escape');
    await page.evaluate(() => window.scrollTo(0, 0));

    await screenshot(page, 'aukcija');
    await checkA11y(page, '/aukcija/{id}');
  });

  it('the seller sees the notification', async () => {
    const { page } = seller;
    await page.goto('/notifikacije');
    await page.getByText('Nova ponuda na vašoj aukciji').first().waitFor();
    expect(await page.getByRole('link', { name: TITLE }).count()).toBeGreaterThan(0);
  });

  it('comments: empty text, seller label, plain text, delete', async () => {
    const b = bidder.page;
    await b.goto(`/aukcija/${auctionId}`);
    await b.getByText('Još nema komentara! Budi prvi koji će komentarisati ovu aukciju!').waitFor();
    await b.getByRole('button', { name: 'Pošalji' }).click();
    await b.getByText('Komentar ne može biti prazan.').waitFor();
    await b.getByLabel('Vaš komentar').fill('Da li je <b>dostupan</b> još?');
    await b.getByRole('button', { name: 'Pošalji' }).click();
    // The comment can reach the list (live event) a moment before the input is cleared, and a React
    // textarea's text is its value: look for it in the list, then see the input emptied.
    await b.locator('.comment', { hasText: 'Da li je <b>dostupan</b> još?' }).waitFor();
    await expect.poll(() => b.getByLabel('Vaš komentar').inputValue()).toBe('');

    const s = seller.page;
    await s.goto(`/aukcija/${auctionId}`);
    await s.locator('.comment', { hasText: 'Da li je <b>dostupan</b> još?' }).waitFor();
    await s.getByLabel('Vaš komentar').fill('Jeste, javite se.');
    await s.getByRole('button', { name: 'Pošalji' }).click();
    const sellerComment = s.locator('.comment', { hasText: 'Jeste, javite se.' });
    await sellerComment.waitFor();
    expect(await sellerComment.textContent()).toContain('(Prodavac)');
    // Newest first.
    expect(await s.locator('.comment').first().textContent()).toContain('Jeste, javite se.');
    // The seller may delete every comment on the own auction.
    expect(await s.getByRole('button', { name: 'Obriši komentar' }).count()).toBe(2);

    await b.reload();
    const mine = b.locator('.comment', { hasText: 'dostupan' });
    await mine.waitFor();
    expect(await b.getByRole('button', { name: 'Obriši komentar' }).count()).toBe(1);
    await mine.getByRole('button', { name: 'Obriši komentar' }).click();
    await mine.waitFor({ state: 'detached' });
    const comments = (await (await fetch(`${server.url}/api/comments/${auctionId}/`)).json()) as { content: string }[];
    expect(comments.map((c) => c.content)).toEqual(['Jeste, javite se.']);
  });

  it('my auctions: ended/bids rules, delete an auction without bids', async () => {
    const noBidsId = await apiCreateAuction(seller.context, 'Stara lampa bez ponuda');
    const { page } = seller;
    await page.goto('/moje-aukcije');
    await page.getByRole('heading', { name: 'Moje Aukcije' }).waitFor();
    const withBids = page.locator('.auction-card', { hasText: TITLE });
    const noBids = page.locator('.auction-card', { hasText: 'Stara lampa bez ponuda' });
    await noBids.waitFor();
    expect(await withBids.getByRole('button', { name: /Obriši/ }).count()).toBe(0);
    await screenshot(page, 'moje-aukcije');
    await checkA11y(page, '/moje-aukcije');

    await noBids.getByRole('button', { name: 'Obriši aukciju Stara lampa bez ponuda' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Obriši aukciju' });
    expect(await dialog.textContent()).toContain('Da li ste sigurni da želite da obrišete ovu aukciju?');
    await dialog.getByRole('button', { name: 'Da' }).click();
    await noBids.waitFor({ state: 'detached' });
    expect((await fetch(`${server.url}/api/auction/${noBidsId}/`)).status).toBe(404);

    await bidder.page.goto('/moje-licitacije');
    await bidder.page.getByRole('heading', { name: 'Moje Licitacije' }).waitFor();
    await bidder.page.locator('.auction-card', { hasText: TITLE }).waitFor();
  });

  it('screenshots at 375 px', async () => {
    const { context, page } = await newPage(browser, server, 375);
    await context.addCookies(await seller.context.cookies());
    await page.goto('/aukcije');
    await page.locator('.auction-card').first().waitFor();
    await screenshot(page, 'aukcije');
    await page.goto(`/aukcija/${auctionId}`);
    await page.getByRole('heading', { name: TITLE }).waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= 375)).toBe(true);
    await screenshot(page, 'aukcija');
    await page.goto('/nova-aukcija');
    await page.getByRole('heading', { name: 'Nova aukcija' }).waitFor();
    await screenshot(page, 'nova-aukcija');
    await page.goto('/moje-aukcije');
    await page.locator('.auction-card').first().waitFor();
    await screenshot(page, 'moje-aukcije');
    await context.close();
  });

  it('the admin deletes an auction', async () => {
    const admin = await userSession('admin', ADMIN_EMAIL);
    await login(admin.page, admin.user, /\/(aukcije|admin\/dashboard)$/);
    await admin.page.goto('/admin/dashboard');
    const del = admin.page.getByRole('button', { name: `Obriši: ${TITLE}` });
    await del.click();
    const dialog = admin.page.locator('[role="dialog"], [role="alertdialog"]').filter({ hasText: 'Obriši aukciju' });
    await dialog.getByRole('button', { name: 'Da' }).click();
    await del.waitFor({ state: 'detached' });
    expect((await fetch(`${server.url}/api/auction/${auctionId}/`)).status).toBe(404);
    await admin.context.close();
  });

  it('the list keeps search and paging in the URL', async () => {
    // 21 more auctions: two pages of 20.
    for (let i = 1; i <= 21; i++) {
      await apiCreateAuction(seller.context, `Kolekcija markica ${String(i).padStart(2, '0')}`, [(i * 67) % 256, (i * 131) % 256, (i * 29 + 90) % 256]);
    }
    const { page } = bidder;
    await page.goto('/aukcije');
    const cards = page.locator('.auction-card');
    await expect.poll(() => cards.count()).toBe(20);
    expect(await page.getByRole('button', { name: 'Prethodna' }).isDisabled()).toBe(true);
    await screenshot(page, 'aukcije');
    await checkA11y(page, '/aukcije');

    await page.getByRole('button', { name: 'Sledeća' }).click();
    await page.waitForURL(/[?&]page=2/);
    await expect.poll(() => cards.count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Sledeća' }).isDisabled()).toBe(true);
    expect(await page.locator('.pagination__page').textContent()).toBe('2');

    // Search: the panel opens with focus in the box, the page goes back to 1, the URL keeps q.
    await page.getByRole('button', { name: 'Filteri' }).click();
    const search = page.getByRole('searchbox', { name: 'Pretraga aukcija' });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await search.getAttribute('placeholder')).toBe('');
    await search.fill('markica 0');
    await page.waitForURL((u) => u.searchParams.get('q') === 'markica 0' && !u.searchParams.has('page'));
    await expect.poll(() => cards.count()).toBe(9);
    expect(await cards.first().textContent()).toContain('Kolekcija markica 0');
    // Sorting keeps the search and starts at page 1 again.
    await page.getByRole('combobox', { name: 'Sortiraj' }).selectOption('priceDesc');
    await page.waitForURL((u) => u.searchParams.get('sort') === 'priceDesc' && u.searchParams.get('q') === 'markica 0');

    // A shared link opens the same state.
    const other = await newPage(browser, server, 375);
    await other.page.goto('/aukcije?page=2&sort=endDateDesc');
    await expect.poll(() => other.page.locator('.auction-card').count()).toBe(1);
    expect(await other.page.locator('.pagination__page').textContent()).toBe('2');
    await other.page.goto('/aukcije?q=nepostojece');
    await other.page.getByText('Trenutno nema aukcija za izabranu kategoriju!').waitFor();
    await other.context.close();
  });

});

async function myAuctionCount(context: BrowserContext): Promise<number> {
  const res = await context.request.get('/api/my-auctions/?page=1');
  return ((await res.json()) as { count: number }).count;
}

async function cookieHeader(context: BrowserContext): Promise<string> {
  return (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
}
