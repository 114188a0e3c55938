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

describe('a visitor\'s list read answered from the cache, before the rest of the API', () => {
  const headersOf = (res: Response) => ({
    status: res.status,
    type: res.headers.get('content-type'),
    cacheControl: res.headers.get('cache-control'),
    vary: res.headers.get('vary'),
    frameOptions: res.headers.get('x-frame-options'),
    csp: res.headers.get('content-security-policy'),
    csrfCookie: res.headers.getSetCookie().some((l) => l.startsWith('csrftoken=')),
  });

  it('carries the same headers as the uncached answer, and a first-time visitor still gets a CSRF cookie that a write accepts', async () => {
    const seller = await createUser(t.ctx);
    await createAuction(t.ctx, seller.id, { title: 'Predmet zaglavlja', starting_price: 1000 });
    const url = `${t.url}/api/auctions/?page=1&q=zaglavlja`;
    const cold = await fetch(url);
    const warm = await fetch(url);
    expect(headersOf(warm)).toEqual(headersOf(cold));
    expect(headersOf(warm)).toMatchObject({ status: 200, cacheControl: 'no-store', csrfCookie: true });
    expect(await warm.json()).toEqual(await cold.json());

    // A visitor whose cookie already holds a valid token is not handed another one; with it, a write passes CSRF.
    const visitor = new ApiClient(t.url);
    await visitor.get('/api/auctions/?page=1&q=zaglavlja');
    const token = visitor.cookies.get('csrftoken');
    expect(token).toBeTruthy();
    const again = await fetch(url, { headers: { cookie: visitor.cookieHeader } });
    expect(again.headers.getSetCookie().some((l) => l.startsWith('csrftoken='))).toBe(false);
    const login = await visitor.post('/api/login/', { email: 'nepostoji@example.com', password: 'Pogresna123' });
    expect(login.status).toBe(401);
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
