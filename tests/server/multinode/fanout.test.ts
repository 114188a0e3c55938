/**
 * Two nodes, one database, one Redis (socket.io's Redis adapter): what happens on node A reaches the sockets
 * connected to node B. Real Redis (TEST_REDIS_URL or 127.0.0.1:6379) under a key prefix of this file.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BidPlacedEvent } from '@shared/schemas/bids';
import { createAuction } from '../../support/auctions';
import { createUser, loginAs } from '../../support/factories';
import { bid } from '../../support/marketplace';
import { startCluster, type Cluster } from '../../support/multinode';
import { collectEvents, emitWithAck, sleep, socketTracker, waitForEvent, type TestSocket } from '../../support/sockets';
import type { TestServer } from '../../support/app';
import { ApiClient } from '../../support/http';

let cluster: Cluster;
let a: TestServer;
let b: TestServer;
const sockets = socketTracker();

beforeAll(async () => {
  cluster = await startCluster(2);
  [a, b] = cluster.nodes as [TestServer, TestServer];
});
afterEach(sockets.closeAll);
afterAll(() => cluster?.close());

async function joined(node: TestServer, auctionId: number, cookie?: string): Promise<{ socket: TestSocket; seq: number }> {
  const socket = await sockets.connect(node.url, cookie ? { cookie } : {});
  const ack = await emitWithAck(socket, 'auction:join', { auction_id: auctionId });
  if (!ack.ok) throw new Error(`join refused: ${ack.detail}`);
  return { socket, seq: ack.seq };
}

/** Waits until `list` holds `n` events (or fails after `timeoutMs`). */
async function atLeast<T>(list: T[], n: number, timeoutMs = 3000): Promise<T[]> {
  const until = Date.now() + timeoutMs;
  while (list.length < n && Date.now() < until) await sleep(20);
  return list;
}

describe('bids across nodes', () => {
  it('a bid accepted on node A reaches a watcher on node B, every one in seq order, once', async () => {
    const seller = await createUser(a.ctx);
    const auction = await createAuction(a.ctx, seller.id, { starting_price: 1000 });
    const bidders = [await loginAs(a.url, await createUser(a.ctx)), await loginAs(a.url, await createUser(a.ctx))];
    const onB = await joined(b, auction.id);
    const onA = await joined(a, auction.id);
    const seenB = collectEvents(onB.socket, 'bid:placed');
    const seenA = collectEvents(onA.socket, 'bid:placed');

    for (let i = 0; i < 8; i++) expect((await bid(bidders[i % 2]!, auction.id, 1010 + i * 10)).status).toBe(201);

    const expected = Array.from({ length: 8 }, (_, i) => onB.seq + 1 + i);
    expect((await atLeast(seenB, 8)).map((e) => e.seq)).toEqual(expected);
    expect((await atLeast(seenA, 8)).map((e) => e.seq)).toEqual(expected);
    expect(seenB.map((e) => e.current_price)).toEqual(expected.map((_, i) => 1010 + i * 10));
    await sleep(100);
    expect(seenB).toHaveLength(8);
  });

  it('bids on both nodes: each watcher of either node gets every seq exactly once', async () => {
    const seller = await createUser(a.ctx);
    const auction = await createAuction(a.ctx, seller.id, { starting_price: 1000 });
    const onA = [await loginAs(a.url, await createUser(a.ctx)), await loginAs(a.url, await createUser(a.ctx))];
    const onB = [await loginAs(b.url, await createUser(a.ctx)), await loginAs(b.url, await createUser(a.ctx))];
    const watchers = [await joined(a, auction.id), await joined(b, auction.id), await joined(b, auction.id)];
    const seen = watchers.map((w) => collectEvents(w.socket, 'bid:placed'));
    const base = watchers[0]!.seq;

    // Alternate nodes: B's own event reaches B's sockets at once, A's only through Redis, so they may cross.
    const clients = [onA[0]!, onB[0]!, onA[1]!, onB[1]!];
    for (let i = 0; i < 12; i++) expect((await bid(clients[i % 4]!, auction.id, 1010 + i * 10)).status).toBe(201);

    const expected = Array.from({ length: 12 }, (_, i) => base + 1 + i);
    for (const list of seen) {
      await atLeast(list, 12);
      const seqs = list.map((e: BidPlacedEvent) => e.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      expect([...seqs].sort((x, y) => x - y)).toEqual(expected);
    }
  });
});

describe('session changes across nodes', () => {
  it('blocking a user on node A sends session:ended to their socket on node B and ends their user channel there', async () => {
    const admin = await loginAs(a.url, await createUser(a.ctx, { admin: true }));
    const user = await createUser(a.ctx);
    const userOnB = await loginAs(b.url, user);
    const seller = await createUser(a.ctx);
    const auction = await createAuction(a.ctx, seller.id);
    const { socket } = await joined(b, auction.id, userOnB.cookieHeader);
    const ended = waitForEvent(socket, 'session:ended', 3000);

    expect((await admin.post(`/api/admin/users/${user.id}/block/`)).status).toBe(200);
    expect(await ended).toEqual({ reason: 'blocked' });

    // Out of user:{id} on B: an event for that user, emitted from A, no longer reaches the socket.
    const userEvents = collectEvents(socket, 'notifications:count');
    a.ctx.realtime.toUser(user.id, 'notifications:count', { unread_notifications_count: 5 });
    const stillWatching = waitForEvent(socket, 'comment:deleted', 3000);
    a.ctx.realtime.toAuction(auction.id, 'comment:deleted', { auction_id: auction.id, seq: 999, comment_id: 1 });
    await stillWatching;
    await sleep(100);
    expect(userEvents).toEqual([]);
    expect(socket.connected).toBe(true);
  });

  it('logging out on node A ends that session’s socket on node B, and only that one', async () => {
    const user = await createUser(a.ctx);
    const laptop = await loginAs(a.url, user);
    const phone = await loginAs(b.url, user);
    const seller = await createUser(a.ctx);
    const auction = await createAuction(a.ctx, seller.id);
    const laptopSocket = (await joined(b, auction.id, laptop.cookieHeader)).socket;
    const phoneSocket = (await joined(a, auction.id, phone.cookieHeader)).socket;
    const phoneHeard = collectEvents(phoneSocket, 'session:ended');
    const ended = waitForEvent(laptopSocket, 'session:ended', 3000);

    expect((await laptop.post('/api/logout/')).status).toBe(200);
    expect(await ended).toEqual({ reason: 'ended' });

    // The other session still gets its user events, from either node.
    const count = waitForEvent(phoneSocket, 'notifications:count', 3000);
    b.ctx.realtime.toUser(user.id, 'notifications:count', { unread_notifications_count: 3 });
    expect(await count).toEqual({ unread_notifications_count: 3 });
    expect(phoneHeard).toEqual([]);
  });

  it('a password change on node A ends the user’s other session, whose socket is on node B', async () => {
    const user = await createUser(a.ctx);
    const here = await loginAs(a.url, user);
    const elsewhere = await loginAs(b.url, user);
    const seller = await createUser(a.ctx);
    const auction = await createAuction(a.ctx, seller.id);
    const { socket } = await joined(b, auction.id, elsewhere.cookieHeader);
    const ended = waitForEvent(socket, 'session:ended', 3000);
    const res = await here.post('/api/change-password/', { old_password: user.password, new_password: 'NovaLozinka456' });
    expect(res.status).toBe(200);
    expect(await ended).toEqual({ reason: 'ended' });
  });

  it('a session created on node A is valid on node B', async () => {
    const user = await createUser(a.ctx);
    const client = await loginAs(a.url, user);
    const onB = new ApiClient(b.url);
    for (const [k, v] of client.cookies) onB.cookies.set(k, v);
    const res = await onB.get('/api/current_user_data/');
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(user.email);
  });
});

describe('GET /api/health/ on a node with Redis', () => {
  it('answers 200 with both engines up', async () => {
    const res = await fetch(`${b.url}/api/health/`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
  });
});
