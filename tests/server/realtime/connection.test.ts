import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser, loginAs, userRowsWritten } from '../../support/factories';
import { createAuction } from '../../support/auctions';
import { collectEvents, connectSocket, emitWithAck, sleep, waitForEvent, socketTracker } from '../../support/sockets';
import type { NotificationEvent } from '@shared/socket-events';

let t: TestServer;
const sockets = socketTracker();
const connect = sockets.connect;

beforeAll(async () => {
  t = await startTestServer({ ALLOWED_ORIGINS: 'http://partner.example:8080' });
});
afterEach(sockets.closeAll);
afterAll(async () => {
  await t.close();
});

const note = (id: number, count: number): NotificationEvent => ({
  notification: { id, message: `Poruka ${id}`, is_read: false, created_at: '2026-11-22T08:00:00.000Z', auction_id: null, kind: 'outbid' as const },
  unread_notifications_count: count,
});

describe('handshake', () => {
  it('accepts the site origin and a configured ALLOWED_ORIGINS origin', async () => {
    const own = await connect(t.url);
    expect(own.connected).toBe(true);
    const partner = await connect(t.url, { origin: 'http://partner.example:8080' });
    expect(partner.connected).toBe(true);
  });

  it('refuses a foreign Origin', async () => {
    await expect(connectSocket(t.url, { origin: 'http://evil.example' })).rejects.toThrow();
    await expect(connectSocket(t.url, { origin: 'http://127.0.0.1:1' })).rejects.toThrow();
    await expect(connectSocket(t.url, { origin: 'http://evil.example', transport: 'polling' })).rejects.toThrow();
  });

  it('long-polling carries the session cookie too', async () => {
    const ana = await createUser(t.ctx);
    const s = await connect(t.url, { cookie: (await loginAs(t.url, ana)).cookieHeader, transport: 'polling' });
    const got = waitForEvent(s, 'notifications:count');
    t.ctx.realtime.toUser(ana.id, 'notifications:count', { unread_notifications_count: 5 });
    expect(await got).toEqual({ unread_notifications_count: 5 });
  });
});

describe('time:sync', () => {
  it('echoes client_time and answers the server clock', async () => {
    const s = await connect(t.url);
    const before = Date.now();
    const r = await emitWithAck(s, 'time:sync', { client_time: 12345.5 });
    expect(r).toEqual({ client_time: 12345.5, server_time: expect.any(Number) });
    if (!('server_time' in r)) throw new Error('refused');
    expect(r.server_time).toBeGreaterThanOrEqual(before - 5);
    expect(r.server_time).toBeLessThanOrEqual(Date.now() + 5);
  });

  it('answers {ok:false} to a malformed payload and keeps the socket usable', async () => {
    const s = await connect(t.url);
    const raw = s as unknown as { timeout(ms: number): { emitWithAck(e: string, p: unknown): Promise<unknown> } };
    expect(await raw.timeout(2000).emitWithAck('time:sync', { client_time: 'soon' })).toEqual({ ok: false, detail: 'Podaci nisu ispravni.' });
    expect(await raw.timeout(2000).emitWithAck('time:sync', null)).toMatchObject({ ok: false });
    // No ack function at all: tolerated, nothing breaks.
    s.emit('time:sync', { client_time: 1 }, undefined as never);
    (s as unknown as { emit(e: string, p: unknown): void }).emit('auction:join', { auction_id: 1 });
    expect(await emitWithAck(s, 'time:sync', { client_time: 2 })).toMatchObject({ client_time: 2 });
  });
});

describe('auction:join / auction:leave', () => {
  it('answers the detail snapshot with seq for a known auction', async () => {
    const seller = await createUser(t.ctx, { first_name: 'Marko Prodavac' });
    const a = await createAuction(t.ctx, seller.id, { title: 'Gitara', starting_price: 5000, city: 'Novi Sad' });
    await t.ctx.db.updateTable('auctions').set({ seq: 7 }).where('id', '=', a.id).execute();
    const s = await connect(t.url);
    const r = await emitWithAck(s, 'auction:join', { auction_id: a.id });
    if (!r.ok) throw new Error(r.detail);
    expect(r.seq).toBe(7);
    expect(Math.abs(r.server_time - Date.now())).toBeLessThan(1000);
    expect(r.auction).toMatchObject({
      id: a.id,
      title: 'Gitara',
      current_price: 5000,
      starting_price: 5000,
      seller: seller.id,
      seller_name: 'Marko Prodavac',
      city: 'Novi Sad',
      bid_count: 0,
      status: 'active',
      winner: null,
      end_date: a.end_date,
      images: [],
    });
  });

  it('answers exactly what GET /api/auction/{id}/ answers', async () => {
    const seller = await createUser(t.ctx);
    const a = await createAuction(t.ctx, seller.id);
    const s = await connect(t.url);
    const r = await emitWithAck(s, 'auction:join', { auction_id: a.id });
    if (!r.ok) throw new Error(r.detail);
    const rest = await fetch(`${t.url}/api/auction/${a.id}/`);
    expect(rest.status).toBe(200);
    expect(r.auction).toEqual(await rest.json());
  });

  it('answers {ok:false, detail} for an unknown id and for a bad payload', async () => {
    const s = await connect(t.url);
    expect(await emitWithAck(s, 'auction:join', { auction_id: 987654 })).toEqual({ ok: false, detail: 'Aukcija ne postoji.' });
    expect(await emitWithAck(s, 'auction:join', { auction_id: -1 })).toEqual({ ok: false, detail: 'Podaci nisu ispravni.' });
    expect(await emitWithAck(s, 'auction:join', { auction_id: '1 OR 1=1' as unknown as number })).toMatchObject({ ok: false });
  });

  it('delivers room events to watchers only, and stops after auction:leave', async () => {
    const seller = await createUser(t.ctx);
    const a = await createAuction(t.ctx, seller.id);
    const other = await createAuction(t.ctx, seller.id);
    const watcher = await connect(t.url);
    const elsewhere = await connect(t.url);
    expect((await emitWithAck(watcher, 'auction:join', { auction_id: a.id })).ok).toBe(true);
    expect((await emitWithAck(elsewhere, 'auction:join', { auction_id: other.id })).ok).toBe(true);
    const strays = collectEvents(elsewhere, 'comment:deleted');

    const got = waitForEvent(watcher, 'comment:deleted');
    t.ctx.realtime.toAuction(a.id, 'comment:deleted', { auction_id: a.id, seq: 1, comment_id: 5 });
    expect(await got).toEqual({ auction_id: a.id, seq: 1, comment_id: 5 });

    expect(await emitWithAck(watcher, 'auction:leave', { auction_id: a.id })).toEqual({ ok: true });
    const after = collectEvents(watcher, 'comment:deleted');
    t.ctx.realtime.toAuction(a.id, 'comment:deleted', { auction_id: a.id, seq: 2, comment_id: 6 });
    await sleep(150);
    expect(after).toEqual([]);
    expect(strays).toEqual([]);
  });

  it('auctions:watch joins many cards at once, reports seqs and missing ids', async () => {
    const seller = await createUser(t.ctx);
    const a = await createAuction(t.ctx, seller.id);
    const b = await createAuction(t.ctx, seller.id);
    await t.ctx.db.updateTable('auctions').set({ seq: 3 }).where('id', '=', b.id).execute();
    const s = await connect(t.url);
    const r = await emitWithAck(s, 'auctions:watch', { auction_ids: [a.id, b.id, 999999, a.id] });
    expect(r).toEqual({
      ok: true,
      server_time: expect.any(Number),
      auctions: [
        { auction_id: a.id, seq: 0 },
        { auction_id: b.id, seq: 3 },
      ],
      missing: [999999],
    });
    const got = waitForEvent(s, 'auction:deleted');
    t.ctx.realtime.toAuction(b.id, 'auction:deleted', { auction_id: b.id, seq: 4 });
    expect(await got).toEqual({ auction_id: b.id, seq: 4 });
    expect(await emitWithAck(s, 'auctions:unwatch', { auction_ids: [a.id, b.id] })).toEqual({ ok: true });
  });

  it('limits one socket to 100 auction rooms', async () => {
    const seller = await createUser(t.ctx);
    const ids: number[] = [];
    for (let i = 0; i < 101; i++) ids.push((await createAuction(t.ctx, seller.id)).id);
    const s = await connect(t.url);
    expect(await emitWithAck(s, 'auctions:watch', { auction_ids: ids.slice(0, 100) })).toMatchObject({ ok: true });
    const r = await emitWithAck(s, 'auction:join', { auction_id: ids[100] });
    expect(r).toEqual({ ok: false, detail: expect.stringMatching(/previše aukcija/i) });
    // Re-joining a room it already has is fine; after leaving one there is space again.
    expect((await emitWithAck(s, 'auction:join', { auction_id: ids[0] })).ok).toBe(true);
    await emitWithAck(s, 'auction:leave', { auction_id: ids[0] });
    expect((await emitWithAck(s, 'auction:join', { auction_id: ids[100] })).ok).toBe(true);
  });
});

describe('user rooms', () => {
  it('user:{id} events reach only that user; anonymous sockets can watch but get none', async () => {
    const ana = await createUser(t.ctx);
    const bob = await createUser(t.ctx);
    const seller = await createUser(t.ctx);
    const auction = await createAuction(t.ctx, seller.id);
    const anaSock = await connect(t.url, { cookie: (await loginAs(t.url, ana)).cookieHeader });
    const bobSock = await connect(t.url, { cookie: (await loginAs(t.url, bob)).cookieHeader });
    const anon = await connect(t.url);
    expect((await emitWithAck(anon, 'auction:join', { auction_id: auction.id })).ok).toBe(true);

    const bobSaw = collectEvents(bobSock, 'notification:created');
    const anonSaw = collectEvents(anon, 'notification:created');
    const anonCount = collectEvents(anon, 'notifications:count');
    const got = waitForEvent(anaSock, 'notification:created');
    t.ctx.realtime.toUser(ana.id, 'notification:created', note(1, 1));
    expect(await got).toEqual(note(1, 1));
    const count = waitForEvent(anaSock, 'notifications:count');
    t.ctx.realtime.toUser(ana.id, 'notifications:count', { unread_notifications_count: 0 });
    expect(await count).toEqual({ unread_notifications_count: 0 });

    const watched = waitForEvent(anon, 'comment:deleted');
    t.ctx.realtime.toAuction(auction.id, 'comment:deleted', { auction_id: auction.id, seq: 1, comment_id: 1 });
    await watched;
    await sleep(100);
    expect(bobSaw).toEqual([]);
    expect(anonSaw).toEqual([]);
    expect(anonCount).toEqual([]);
  });

  it('a blocked user and a forged/unknown session get no user room', async () => {
    const eve = await createUser(t.ctx);
    const client = await loginAs(t.url, eve);
    await t.ctx.db.updateTable('users').set({ blocked_at: new Date().toISOString() }).where('id', '=', eve.id).execute();
    await userRowsWritten(t.ctx);
    const sock = await connect(t.url, { cookie: client.cookieHeader });
    const forged = await connect(t.url, { cookie: 'sessionid=s%3Aforged.signature' });
    const saw = collectEvents(sock, 'notification:created');
    const forgedSaw = collectEvents(forged, 'notification:created');
    t.ctx.realtime.toUser(eve.id, 'notification:created', note(2, 1));
    await sleep(150);
    expect(saw).toEqual([]);
    expect(forgedSaw).toEqual([]);
    expect(await emitWithAck(sock, 'time:sync', { client_time: 1 })).toMatchObject({ client_time: 1 });
  });

  it('logout drops that session’s sockets from user:{id} at once; the user’s other session keeps it', async () => {
    const ana = await createUser(t.ctx);
    const seller = await createUser(t.ctx);
    const auction = await createAuction(t.ctx, seller.id);
    const laptop = await loginAs(t.url, ana);
    const phone = await loginAs(t.url, ana);
    const laptopSock = await connect(t.url, { cookie: laptop.cookieHeader });
    const phoneSock = await connect(t.url, { cookie: phone.cookieHeader });
    await emitWithAck(laptopSock, 'auction:join', { auction_id: auction.id });

    const res = await laptop.post('/api/logout/');
    expect(res.status).toBe(200);
    const laptopSaw = collectEvents(laptopSock, 'notification:created');
    const phoneGot = waitForEvent(phoneSock, 'notification:created');
    t.ctx.realtime.toUser(ana.id, 'notification:created', note(3, 1));
    expect(await phoneGot).toEqual(note(3, 1));
    await sleep(100);
    expect(laptopSaw).toEqual([]);

    // Still a connected, anonymous watcher of its auction.
    const watched = waitForEvent(laptopSock, 'comment:deleted');
    t.ctx.realtime.toAuction(auction.id, 'comment:deleted', { auction_id: auction.id, seq: 1, comment_id: 9 });
    expect(await watched).toMatchObject({ comment_id: 9 });
  });

  it('blocking (dropUser after blocked_at is set) drops every socket of that user', async () => {
    const ana = await createUser(t.ctx);
    const s1 = await connect(t.url, { cookie: (await loginAs(t.url, ana)).cookieHeader });
    const s2 = await connect(t.url, { cookie: (await loginAs(t.url, ana)).cookieHeader });
    await t.ctx.db.updateTable('users').set({ blocked_at: new Date().toISOString() }).where('id', '=', ana.id).execute();
    await userRowsWritten(t.ctx);
    await t.ctx.realtime.dropUser(ana.id);
    const saw1 = collectEvents(s1, 'notification:created');
    const saw2 = collectEvents(s2, 'notification:created');
    t.ctx.realtime.toUser(ana.id, 'notification:created', note(4, 1));
    await sleep(150);
    expect(saw1).toEqual([]);
    expect(saw2).toEqual([]);
  });

  it('dropUser called just before the block is written still drops the sockets (re-checked a moment later)', async () => {
    const ana = await createUser(t.ctx);
    const sock = await connect(t.url, { cookie: (await loginAs(t.url, ana)).cookieHeader });
    await t.ctx.realtime.dropUser(ana.id);
    const still = waitForEvent(sock, 'notifications:count');
    t.ctx.realtime.toUser(ana.id, 'notifications:count', { unread_notifications_count: 1 });
    expect(await still).toEqual({ unread_notifications_count: 1 });
    await t.ctx.db.updateTable('users').set({ blocked_at: new Date().toISOString() }).where('id', '=', ana.id).execute();
    await userRowsWritten(t.ctx);
    await sleep(1200);
    const saw = collectEvents(sock, 'notifications:count');
    t.ctx.realtime.toUser(ana.id, 'notifications:count', { unread_notifications_count: 2 });
    await sleep(150);
    expect(saw).toEqual([]);
  });

  it('a session destroyed without dropUser (e.g. password change elsewhere) is caught by the session re-check', async () => {
    const ana = await createUser(t.ctx);
    const sock = await connect(t.url, { cookie: (await loginAs(t.url, ana)).cookieHeader });
    const first = waitForEvent(sock, 'notification:created');
    t.ctx.realtime.toUser(ana.id, 'notification:created', note(5, 1));
    await first;
    expect(await t.ctx.sessions.destroyUserSessions(ana.id)).toBeGreaterThan(0);
    expect(await t.ctx.realtime.recheckSessions()).toBe(1);
    const saw = collectEvents(sock, 'notification:created');
    t.ctx.realtime.toUser(ana.id, 'notification:created', note(6, 2));
    await sleep(150);
    expect(saw).toEqual([]);
  });
});

describe('per-socket state (issue 30, B9)', () => {
  it("every socket's room handlers are the server's shared functions, and each still answers for its own socket", async () => {
    const seller = await createUser(t.ctx);
    const [a, b] = [await createAuction(t.ctx, seller.id), await createAuction(t.ctx, seller.id)];
    const [one, two] = [await connect(t.url), await connect(t.url)];
    const server = (id: string | undefined) => t.ctx.realtime.io.of('/').sockets.get(id!)!;
    for (const event of ['time:sync', 'auction:join', 'auction:leave', 'auctions:watch', 'auctions:unwatch'] as const) {
      expect(server(one.id).listeners(event)).toHaveLength(1);
      expect(server(one.id).listeners(event)).toEqual(server(two.id).listeners(event));
    }
    expect(await emitWithAck(one, 'auction:join', { auction_id: a.id })).toMatchObject({ ok: true, auction: { id: a.id } });
    expect(await emitWithAck(two, 'auction:join', { auction_id: b.id })).toMatchObject({ ok: true, auction: { id: b.id } });
    expect([...server(one.id).rooms].filter((r) => r.startsWith('auction:'))).toEqual([`auction:${a.id}`]);
    expect([...server(two.id).rooms].filter((r) => r.startsWith('auction:'))).toEqual([`auction:${b.id}`]);
  });
});
