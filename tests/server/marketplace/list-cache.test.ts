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
import { changesLists } from '../../../server/features/auctions/list-cache';
import type { DomainEvent } from '../../../server/events';

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

describe('which committed events drop the lists\' entries', () => {
  const named = (type: string) => ({ type, payload: { auction_id: 7 } }) as unknown as DomainEvent;
  it('every event that names an auction (also types other branches add), blocks and unblocks; not comments or notifications', () => {
    for (const type of ['bid:placed', 'auction:closed', 'auction:deleted', 'auction:updated', 'auction:created', 'image:added']) expect(changesLists(named(type)), type).toBe(true);
    expect(changesLists({ type: 'session:ended', userId: 3 })).toBe(true);
    expect(changesLists({ type: 'lists:changed' })).toBe(true);
    expect(changesLists({ type: 'auction:created' } as unknown as DomainEvent)).toBe(true);
    for (const type of ['comment:created', 'comment:deleted']) expect(changesLists(named(type)), type).toBe(false);
    expect(changesLists({ type: 'notifications:read', userId: 3, unread: 0 })).toBe(false);
  });
});
