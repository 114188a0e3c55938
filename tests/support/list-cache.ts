/**
 * The list cache's promise (issue 30, server/features/auctions/list-cache.ts), as one suite run on one node and
 * on two: a visitor's list read on the reading node, warmed first, shows a change made on the writing node as
 * soon as that change's answer arrived; fields that depend on the caller never reach another caller.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuctionCard, Paged } from '@shared/schemas/auctions';
import { ENTRY_TTL_MS } from '../../server/features/auctions/list-cache';
import type { TestServer } from './app';
import { createAuction } from './auctions';
import { createUser, loginAs } from './factories';
import { ApiClient } from './http';
import { bid } from './marketplace';

let fresh = 0;
/**
 * `url` with a parameter the lists ignore, new on every call: the list cache has never seen it, so the read runs
 * the list's SQL. For tests of the SQL itself (statement counts, rows written straight into the database, which
 * no event announces).
 */
export function pastTheCache<S extends string>(url: S): S {
  fresh += 1;
  return `${url}${url.includes('?') ? '&' : '?'}uncached=${fresh}` as S;
}

/** A word only this auction's title has (letters only: the search normalises and matches trigrams). */
function uniqueWord(): string {
  return Array.from(crypto.randomBytes(8), (b) => String.fromCharCode(97 + (b % 26))).join('');
}

async function page(api: ApiClient, word: string): Promise<Paged<AuctionCard>> {
  const res = await api.get(`/api/auctions/?page=1&q=${word}`);
  expect(res.status).toBe(200);
  return res.body as Paged<AuctionCard>;
}

/** Reads the list twice, so the second read is the cached one, and returns that. */
async function warm(api: ApiClient, word: string): Promise<Paged<AuctionCard>> {
  const first = await page(api, word);
  const second = await page(api, word);
  expect(second).toEqual(first);
  return second;
}

export function listCacheSuite(nodes: () => { reader: TestServer; writer: TestServer }): void {
  /** An auction (seller, word) that the list search finds alone, created on the writing node's database. */
  async function listed(opts: { buy_now_price?: number; reserve_price?: number; description?: string } = {}) {
    const { writer } = nodes();
    const seller = await createUser(writer.ctx);
    const word = uniqueWord();
    const auction = await createAuction(writer.ctx, seller.id, { title: `Predmet ${word}`, starting_price: 1000, ...opts });
    return { seller, word, auction };
  }

  describe('GET /api/auctions/ (visitor, cache warm)', () => {
    it('shows a bid accepted on the writing node in the very next read', async () => {
      const { reader, writer } = nodes();
      const { word, auction } = await listed();
      const visitor = new ApiClient(reader.url);
      expect((await warm(visitor, word)).results.map((c) => [c.id, c.current_price, c.bid_count])).toEqual([[auction.id, 1000, 0]]);

      const bidder = await loginAs(writer.url, await createUser(writer.ctx));
      expect((await bid(bidder, auction.id, 1010)).status).toBe(201);
      expect((await page(visitor, word)).results.map((c) => [c.id, c.current_price, c.bid_count])).toEqual([[auction.id, 1010, 1]]);
      expect((await bid(bidder, auction.id, 1020)).status).toBe(201);
      expect((await page(visitor, word)).results[0]).toMatchObject({ current_price: 1020, bid_count: 2 });
    });

    it('drops an auction deleted on the writing node from the very next read', async () => {
      const { reader, writer } = nodes();
      const { seller, word, auction } = await listed();
      const visitor = new ApiClient(reader.url);
      expect((await warm(visitor, word)).count).toBe(1);

      const api = await loginAs(writer.url, seller);
      expect((await api.delete(`/api/auctionItems/delete/${auction.id}/`)).status).toBe(204);
      expect(await page(visitor, word)).toMatchObject({ count: 0, results: [] });
    });

    it('drops an auction closed by "Kupi odmah" on the writing node from the very next read', async () => {
      const { reader, writer } = nodes();
      const { word, auction } = await listed({ buy_now_price: 5000 });
      const visitor = new ApiClient(reader.url);
      expect((await warm(visitor, word)).results.map((c) => c.id)).toEqual([auction.id]);

      const buyer = await loginAs(writer.url, await createUser(writer.ctx));
      expect((await buyer.post(`/api/auctions/${auction.id}/buy-now/`)).status).toBe(201);
      expect(await page(visitor, word)).toMatchObject({ count: 0, results: [] });
    });

    it("hides a seller blocked on the writing node from the very next read, and shows them again once unblocked", async () => {
      const { reader, writer } = nodes();
      const { seller, word, auction } = await listed();
      const visitor = new ApiClient(reader.url);
      expect((await warm(visitor, word)).results.map((c) => c.id)).toEqual([auction.id]);

      const admin = await loginAs(writer.url, await createUser(writer.ctx, { admin: true }));
      expect((await admin.post(`/api/admin/users/${seller.id}/block/`, {})).status).toBeLessThan(300);
      expect((await page(visitor, word)).count).toBe(0);
      expect((await page(visitor, word)).count).toBe(0);
      expect((await admin.post(`/api/admin/users/${seller.id}/unblock/`, {})).status).toBeLessThan(300);
      expect((await page(visitor, word)).results.map((c) => c.id)).toEqual([auction.id]);
    });

    it('answers compressed JSON to a client that accepts it, the same list as uncompressed', async () => {
      const { reader } = nodes();
      const { word } = await listed({ description: 'Opis u odličnom stanju, bez oštećenja. '.repeat(60) });
      const path = `/api/auctions/?page=1&q=${word}`;
      const plain = await fetch(reader.url + path, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers.get('content-encoding')).toBeNull();
      const plainBody: unknown = await plain.json();
      for (const enc of ['gzip', 'br']) {
        const res = await fetch(reader.url + path, { headers: { 'accept-encoding': enc } });
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(res.headers.get('content-encoding')).toBe(enc);
        expect(res.headers.get('vary')).toBe('Accept-Encoding');
        expect(await res.json()).toEqual(plainBody);
      }
    });
  });

  describe('fields that depend on the caller', () => {
    it("never hands the seller's reserve or a user's watched mark to anyone else, whoever read first", async () => {
      const { reader, writer } = nodes();
      const { seller, word, auction } = await listed({ reserve_price: 4000 });
      const sellerApi = await loginAs(reader.url, seller);
      const watcherUser = await createUser(writer.ctx);
      const watcher = await loginAs(reader.url, watcherUser);
      expect((await watcher.post('/api/watchlist/', { auction_item_id: auction.id })).status).toBe(201);
      const visitor = new ApiClient(reader.url);

      // Logged-in callers first, then the visitor (twice: the second from the cache), then the callers again.
      expect((await page(sellerApi, word)).results[0]).toMatchObject({ id: auction.id, reserve_price: 4000, has_reserve: true });
      expect((await page(watcher, word)).results[0]).toMatchObject({ id: auction.id, watched: true });
      for (const card of [(await page(visitor, word)).results[0], (await page(visitor, word)).results[0]]) {
        expect(card).toMatchObject({ id: auction.id, watched: false, has_reserve: true });
        expect(card).not.toHaveProperty('reserve_price');
      }
      expect((await page(watcher, word)).results[0]).toMatchObject({ watched: true });
      expect((await page(watcher, word)).results[0]).not.toHaveProperty('reserve_price');
      expect((await page(sellerApi, word)).results[0]).toMatchObject({ reserve_price: 4000, watched: false });
    });
  });

  it(`keeps an entry at most ${ENTRY_TTL_MS} ms for changes no event announces (a new auction)`, async () => {
    const { reader, writer } = nodes();
    const { seller, word } = await listed();
    const visitor = new ApiClient(reader.url);
    expect((await warm(visitor, word)).count).toBe(1);
    await createAuction(writer.ctx, seller.id, { title: `Drugi ${word}` });
    await new Promise((r) => setTimeout(r, ENTRY_TTL_MS + 50));
    expect((await page(visitor, word)).count).toBe(2);
  });
}
