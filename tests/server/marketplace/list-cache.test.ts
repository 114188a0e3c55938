/**
 * The list cache on one node (issue 30): its promise (tests/support/list-cache.ts), and that a warm entry is
 * really served without the list's SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuctionCard, Paged } from '@shared/schemas/auctions';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser } from '../../support/factories';
import { ApiClient } from '../../support/http';
import { listCacheSuite } from '../../support/list-cache';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

listCacheSuite(() => ({ reader: t, writer: t }));

describe('GET /api/auctions/ from the cache', () => {
  it('serves a warm entry without reading the database again (a change no event announces shows only later)', async () => {
    const seller = await createUser(t.ctx);
    const auction = await createAuction(t.ctx, seller.id, { title: 'Predmet kesiranja', starting_price: 1000 });
    const visitor = new ApiClient(t.url);
    const read = async () => ((await visitor.get('/api/auctions/?page=1&q=kesiranja')).body as Paged<AuctionCard>).results[0]?.current_price;
    expect(await read()).toBe(1000);
    await t.ctx.db.updateTable('auctions').set({ current_price: 1500 }).where('id', '=', auction.id).execute();
    expect(await read()).toBe(1000);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await read()).toBe(1500);
  });
});
