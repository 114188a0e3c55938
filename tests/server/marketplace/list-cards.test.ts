/**
 * Issue 11 §3: every list card carries `city` and `images` (all of the auction's images, display order, exactly
 * as on the detail) next to `first_image`, on every list endpoint, and the images of a page are read in one
 * batched statement. Clients written by someone else (the original product's web client) read both. Issue 14:
 * so are the caller's `watched` marks (none read for a visitor).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuctionCard, AuctionDetail, Paged } from '@shared/schemas/auctions';
import { startTestServer, type TestServer } from '../../support/app';
import { pastTheCache } from '../../support/list-cache';
import { createUser, loginAs } from '../../support/factories';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { imagesForm, pngBuffer } from '../../support/images';
import { declaredRoutes } from '../../support/security-routes';
import { recordStatementsOf } from '../../support/statements';

let t: TestServer;
const H = 3600 * 1000;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

type Who = 'visitor' | 'seller' | 'bidder' | 'admin';

/**
 * Every endpoint that answers cards, with who asks (own lists need their owner, the admin sees everything).
 * The last test walks the router and fails when some other GET route answers cards that are not listed here.
 */
const LIST_ENDPOINTS: { path: string; who: Who }[] = [
  { path: '/api/auctions/', who: 'visitor' },
  { path: '/api/auctions/best/', who: 'visitor' },
  { path: '/api/all-auction-items/', who: 'visitor' },
  { path: '/api/all-auction-items/', who: 'admin' },
  { path: '/api/my-auctions/', who: 'seller' },
  { path: '/api/auctionItems/', who: 'seller' },
  { path: '/api/all-my-biddings/', who: 'bidder' },
  { path: '/api/watchlist/', who: 'bidder' },
  // Issue 23: a member's open auctions on their public profile (`:id` is our seller).
  { path: '/api/members/:id/auctions/', who: 'visitor' },
];
let sellerId = 0;

/** Cards of a plain or paged answer, parsed with the shared schema (an unknown or missing field fails). */
const StrictCard = AuctionCard.strict();
function cardsOf(body: unknown): z.infer<typeof AuctionCard>[] {
  if (Array.isArray(body)) return z.array(StrictCard).parse(body);
  return Paged(StrictCard).parse(body).results;
}

describe('list cards carry city and every image, as on the detail', () => {
  const clients = {} as Record<Who, ApiClient>;
  /** Our three auctions: with 3 images (reordered), without images, with 1 image; each in its own city. */
  let ids: { three: number; none: number; one: number };
  let detail: Map<number, AuctionDetail>;
  /** The display order we set on `three`: upload order 1, 2, 3 → shown as 3, 1, 2. */
  let threeOrder: number[];

  beforeAll(async () => {
    const seller = await createUser(t.ctx);
    sellerId = seller.id;
    const bidder = await createUser(t.ctx);
    const admin = await createUser(t.ctx, { admin: true });
    clients.visitor = new ApiClient(t.url);
    clients.seller = await loginAs(t.url, seller);
    clients.bidder = await loginAs(t.url, bidder);
    clients.admin = await loginAs(t.url, admin);
    ids = {
      three: (await createAuction(t.ctx, seller.id, { city: 'Novi Sad', endsInMs: 2 * H, title: 'Tri slike lampa' })).id,
      none: (await createAuction(t.ctx, seller.id, { city: 'Niš', endsInMs: 3 * H, title: 'Bez slike lampa' })).id,
      one: (await createAuction(t.ctx, seller.id, { city: 'Kragujevac', endsInMs: 4 * H, title: 'Jedna slika lampa' })).id,
    };
    const pngs = await Promise.all([10, 120, 240].map((r) => pngBuffer(64, 48, { r, g: 40, b: 90 })));
    const up = await clients.seller.post(
      `/api/auction-items/${ids.three}/images/`,
      imagesForm(pngs.map((data, i) => ({ name: `slika${i + 1}.png`, data }))),
    );
    expect(up.status).toBe(201);
    const uploaded = (up.body.images as { id: number }[]).map((i) => i.id);
    threeOrder = [uploaded[2]!, uploaded[0]!, uploaded[1]!];
    expect((await clients.seller.put(`/api/auction-items/${ids.three}/images/order/`, { image_ids: threeOrder })).status).toBe(200);
    expect((await clients.seller.post(`/api/auction-items/${ids.one}/images/`, imagesForm([{ name: 'jedna.png', data: pngs[0]! }]))).status).toBe(201);
    // Real bids: the bidder's own list and the popular list show these.
    for (const id of [ids.three, ids.one]) {
      expect((await clients.bidder.post('/api/bids/', { auction_item_id: id, amount: 2000 })).status).toBe(201);
    }
    // The bidder's watchlist shows all three.
    for (const id of Object.values(ids)) expect((await clients.bidder.post('/api/watchlist/', { auction_item_id: id })).status).toBe(201);
    detail = new Map();
    for (const id of Object.values(ids)) {
      const res = await clients.visitor.get(`/api/auction/${id}/`);
      expect(res.status).toBe(200);
      detail.set(id, AuctionDetail.parse(res.body));
    }
    expect(detail.get(ids.three)!.images.map((i) => i.id)).toEqual(threeOrder);
  });

  for (const { path, who } of LIST_ENDPOINTS) {
    const variants = path === '/api/auctions/best/' ? [path] : [path, `${path}?page=1`, `${path}?page=1&page_size=2&sort=endDateDesc`, `${path}?page=1&q=lampa`];
    for (const url of variants) {
      it(`GET ${url} (${who}): each card's city and images equal the detail's, first_image is the first image's card`, async () => {
        const res = await clients[who].get(url.replace(':id', String(sellerId)));
        expect(res.status).toBe(200);
        const cards = cardsOf(res.body);
        const ours = cards.filter((c) => detail.has(c.id));
        expect(ours.length).toBeGreaterThan(0);
        for (const card of ours) {
          const d = detail.get(card.id)!;
          expect(card.city).toBe(d.city);
          expect(card.images).toEqual(d.images);
          expect(card.first_image).toBe(d.images[0]?.thumbnail ?? null);
        }
        const three = ours.find((c) => c.id === ids.three);
        if (three) {
          expect(three.city).toBe('Novi Sad');
          expect(three.images.map((i) => i.id)).toEqual(threeOrder);
          for (const img of three.images) {
            expect(img.image).toMatch(/^\/media\/[0-9a-f]{2}\/[0-9a-f]{32}-large\.webp$/);
            expect(img.thumbnail).toMatch(/^\/media\/[0-9a-f]{2}\/[0-9a-f]{32}-card\.webp$/);
          }
        }
        const none = ours.find((c) => c.id === ids.none);
        if (none) expect([none.city, none.images, none.first_image]).toEqual(['Niš', [], null]);
      });
    }
  }

  it('the image URLs on a card are served (the same files the detail shows)', async () => {
    const cards = cardsOf((await clients.visitor.get('/api/auctions/')).body);
    const three = cards.find((c) => c.id === ids.three)!;
    for (const img of three.images) {
      for (const url of [img.image, img.thumbnail]) {
        const res = await fetch(t.url + url);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/webp');
      }
    }
  });

  it('no other GET route answers cards: every card-answering endpoint is in LIST_ENDPOINTS', async () => {
    const listed = new Set(LIST_ENDPOINTS.map((e) => e.path));
    const routes = declaredRoutes(t.server.app).filter((r) => r.method === 'GET' && r.path.startsWith('/api/'));
    expect(routes.length).toBeGreaterThan(15);
    const unlisted: string[] = [];
    for (const r of routes) {
      const url = r.path.replace(/:[A-Za-z]+/g, String(ids.three));
      for (const who of ['visitor', 'seller', 'bidder', 'admin'] as const) {
        const res = await clients[who].get(url);
        const items: unknown[] = Array.isArray(res.body) ? res.body : Array.isArray(res.body?.results) ? res.body.results : [];
        const answersCards = items.some((i) => typeof i === 'object' && i !== null && 'first_image' in i);
        if (answersCards && !listed.has(r.path)) unlisted.push(`${r.path} (${who})`);
      }
    }
    expect(unlisted).toEqual([]);
  });
});

describe('the images of a page are one batched statement, never one per card', () => {
  it('every list endpoint: a page of 30 cards (3 images each) runs as many statements as a page of 2, one of them reading images', async () => {
    const owner = await createUser(t.ctx);
    const bidder = await createUser(t.ctx);
    const admin = await createUser(t.ctx, { admin: true });
    const as: Record<Who, ApiClient> = {
      visitor: new ApiClient(t.url),
      seller: await loginAs(t.url, owner),
      bidder: await loginAs(t.url, bidder),
      admin: await loginAs(t.url, admin),
    };
    const made: number[] = [];
    const now = new Date().toISOString();
    for (let i = 0; i < 30; i++) {
      const a = await createAuction(t.ctx, owner.id, { category: 'media', endsInMs: 200 * H + i * 1000, city: `Grad ${i}` });
      for (let p = 0; p < 3; p++) {
        const name = `${String(i).padStart(2, '0')}/${String(p).repeat(32)}`;
        await t.ctx.db
          .insertInto('auction_images')
          .values({ auction_id: a.id, position: 2 - p, card_path: `${name}-card.webp`, large_path: `${name}-large.webp`, width: 1, height: 1, created_at: now })
          .execute();
      }
      await t.ctx.db.insertInto('bids').values({ auction_id: a.id, bidder_id: bidder.id, amount: 1010, created_at: now }).execute();
      await t.ctx.db.updateTable('auctions').set({ bid_count: 1, current_price: 1010 }).where('id', '=', a.id).execute();
      await t.ctx.db.insertInto('watchlist').values({ user_id: bidder.id, auction_id: a.id, created_at: now }).execute();
      made.push(a.id);
    }

    const log = recordStatementsOf(t.ctx);
    /** A statement that reads images on its own (not the card query's first_image subselect). */
    const readsImages = (s: string) => /^select\b[^()]*\bfrom "auction_images"/i.test(s);
    /** A statement that reads the viewer's watched marks on its own (not the watchlist's own filter subselect). */
    const readsWatched = (s: string) => /^select\b[^()]*\bfrom "watchlist"/i.test(s);
    /** Statements of one request: the fewest of three runs (the recorder leaves the closer's statements out already). */
    const measure = async (who: Who, url: string, expected: number) => {
      const runs: { total: number; images: number; watched: number }[] = [];
      for (let i = 0; i < 3; i++) runs.push(await measureOnce(who, url, expected));
      const fewest = (k: 'total' | 'images' | 'watched') => Math.min(...runs.map((r) => r[k]));
      return { total: fewest('total'), images: fewest('images'), watched: fewest('watched') };
    };
    const measureOnce = async (who: Who, url: string, expected: number) => {
      log.reset();
      // Every run a URL of its own: a visitor's second read would come from the list cache, without SQL.
      const res = await as[who].get(pastTheCache(url));
      expect(res.status).toBe(200);
      const cards = cardsOf(res.body);
      expect(cards).toHaveLength(expected);
      for (const c of cards) {
        expect(c.images).toHaveLength(3);
        // position 2 - p: the display order is the reverse of insertion, and first_image is the first one.
        expect(c.images.map((i) => i.image.replace(/^\/media\/\d\d\/(\d)\1{31}-large\.webp$/, '$1'))).toEqual(['2', '1', '0']);
        expect(c.first_image).toBe(c.images[0]!.thumbnail);
        expect(c.city).toMatch(/^Grad \d+$/);
        // The bidder watches all of them; nobody else does.
        expect(c.watched).toBe(who === 'bidder');
      }
      return { total: log.sources.length, images: log.sources.filter(readsImages).length, watched: log.sources.filter(readsWatched).length };
    };

    try {
      const cases: { who: Who; path: string }[] = [
        { who: 'visitor', path: '/api/auctions/?category=media' },
        { who: 'visitor', path: '/api/all-auction-items/?category=media' },
        { who: 'admin', path: '/api/all-auction-items/?category=media' },
        { who: 'seller', path: '/api/my-auctions/?category=media' },
        { who: 'seller', path: '/api/auctionItems/?category=media' },
        { who: 'bidder', path: '/api/all-my-biddings/?category=media' },
        { who: 'bidder', path: '/api/watchlist/?category=media' },
      ];
      for (const { who, path } of cases) {
        for (const paged of [false, true]) {
          const url = (size: number) => `${path}&page_size=${size}${paged ? '&page=1' : ''}`;
          const small = await measure(who, url(2), 2);
          const large = await measure(who, url(30), 30);
          expect(small.images, url(2)).toBe(1);
          expect(large.images, url(30)).toBe(1);
          // A logged-in caller's watched marks: one statement for the page; a visitor's page reads none.
          expect(large.watched, url(30)).toBe(who === 'visitor' ? 0 : 1);
          expect(large.total, url(30)).toBe(small.total);
        }
      }
      // Popular: always 10 cards, ours have recent bids; still one statement for all their images.
      log.reset();
      // Past the cache: the rows above went straight into the database, which no event announces.
      const best = await as.visitor.get(pastTheCache('/api/auctions/best/'));
      expect(cardsOf(best.body)).toHaveLength(10);
      expect(log.sources.filter(readsImages)).toHaveLength(1);
    } finally {
      log.stop();
      await t.ctx.db.deleteFrom('auctions').where('id', 'in', made).execute();
    }
  });
});
