import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser, loginAs } from '../../support/factories';
import { createAuction } from '../../support/auctions';
import type { ApiClient } from '../../support/http';
import { collectEvents, emitWithAck, sleep, waitForEvent, type TestSocket, socketTracker } from '../../support/sockets';

/** End to end: HTTP writes by one user, events on other users' real sockets. */
let t: TestServer;
const sockets = socketTracker();
const connect = sockets.connect;

beforeAll(async () => {
  t = await startTestServer({ SOFT_CLOSE_SECONDS: '0' });
});
afterEach(sockets.closeAll);
afterAll(async () => {
  await t.close();
});

async function bidder(name: string): Promise<{ id: number; api: ApiClient; socket: TestSocket }> {
  const u = await createUser(t.ctx, { first_name: name });
  const api = await loginAs(t.url, u);
  return { id: u.id, api, socket: await connect(t.url, { cookie: api.cookieHeader }) };
}

async function joined(socket: TestSocket, auctionId: number): Promise<number> {
  const r = await emitWithAck(socket, 'auction:join', { auction_id: auctionId });
  if (!r.ok) throw new Error(r.detail);
  return r.seq;
}

/** Waits until `list` holds `n` items (or fails after `ms`). */
async function until<T>(list: T[], n: number, ms = 3000): Promise<T[]> {
  const end = Date.now() + ms;
  while (list.length < n && Date.now() < end) await sleep(10);
  expect(list).toHaveLength(n);
  return list;
}

describe('bid:placed', () => {
  it('reaches a watcher with the right payload; the outbid leader and the seller get notification:created, nobody else', async () => {
    const seller = await createUser(t.ctx, { first_name: 'Sava Prodavac' });
    const sellerApi = await loginAs(t.url, seller);
    const sellerSock = await connect(t.url, { cookie: sellerApi.cookieHeader });
    const auction = await createAuction(t.ctx, seller.id, { starting_price: 1000, title: 'Bicikl' });
    const ana = await bidder('Ana');
    const bob = await bidder('Bob');
    const watcher = await connect(t.url);
    const seq0 = await joined(watcher, auction.id);

    const placed = collectEvents(watcher, 'bid:placed');
    const anaNotes = collectEvents(ana.socket, 'notification:created');
    const bobNotes = collectEvents(bob.socket, 'notification:created');
    const watcherNotes = collectEvents(watcher, 'notification:created');
    const sellerNotes = collectEvents(sellerSock, 'notification:created');

    const r1 = await ana.api.post('/api/bids/', { auction_item_id: auction.id, amount: 1010 });
    expect(r1.status).toBe(201);
    await until(placed, 1);
    expect(placed[0]).toEqual({
      auction_id: auction.id,
      seq: seq0 + 1,
      bid: { id: r1.body.id, bidder: ana.id, bidder_name: 'Ana', amount: 1010, created_at: r1.body.created_at, auto: false, buy_now: false },
      current_price: 1010,
      bid_count: 1,
      end_date: auction.end_date,
      reserve_met: null,
    });
    await until(sellerNotes, 1);

    const r2 = await bob.api.post('/api/bids/', { auction_item_id: auction.id, amount: 1500 });
    expect(r2.status).toBe(201);
    await until(placed, 2);
    expect(placed[1]).toMatchObject({ seq: seq0 + 2, current_price: 1500, bid_count: 2, bid: { bidder: bob.id, amount: 1500 } });
    await until(anaNotes, 1);
    expect(anaNotes[0].notification).toMatchObject({ is_read: false, auction_id: auction.id });
    expect(anaNotes[0].unread_notifications_count).toBe(1);
    expect(typeof anaNotes[0].notification.message).toBe('string');

    await sleep(150);
    expect(bobNotes).toEqual([]);
    expect(watcherNotes).toEqual([]);
    expect(anaNotes).toHaveLength(1);
    // The seller hears of both bids (one notification, or one created + one coalesced update).
    expect(sellerNotes.length).toBeGreaterThanOrEqual(1);

    // A late joiner's snapshot agrees with the events.
    const late = await connect(t.url);
    const snap = await emitWithAck(late, 'auction:join', { auction_id: auction.id });
    if (!snap.ok) throw new Error(snap.detail);
    expect(snap.seq).toBe(seq0 + 2);
    expect(snap.auction).toMatchObject({ current_price: 1500, bid_count: 2 });
  });

  it('seq rises by one per accepted bid without gaps, also under concurrent bidding', async () => {
    const seller = await createUser(t.ctx);
    const auction = await createAuction(t.ctx, seller.id, { starting_price: 1000 });
    const ana = await bidder('Ana');
    const bob = await bidder('Bob');
    const w1 = await connect(t.url);
    const w2 = await connect(t.url);
    const seq0 = await joined(w1, auction.id);
    await joined(w2, auction.id);
    const seen1 = collectEvents(w1, 'bid:placed');
    const seen2 = collectEvents(w2, 'bid:placed');

    // Ten rounds, both bidders racing for the same next price: exactly one wins each round.
    let accepted = 0;
    for (let round = 1; round <= 10; round++) {
      const amount = 1000 + round * 10;
      const [ra, rb] = await Promise.all([
        ana.api.post('/api/bids/', { auction_item_id: auction.id, amount }),
        bob.api.post('/api/bids/', { auction_item_id: auction.id, amount }),
      ]);
      accepted += [ra, rb].filter((r) => r.status === 201).length;
    }
    expect(accepted).toBe(10);
    await until(seen1, 10);
    await until(seen2, 10);
    expect(seen1.map((e) => e.seq)).toEqual(Array.from({ length: 10 }, (_, i) => seq0 + 1 + i));
    expect(seen1.map((e) => e.current_price)).toEqual(Array.from({ length: 10 }, (_, i) => 1010 + i * 10));
    expect(seen2).toEqual(seen1);
  });

  it('a refused bid broadcasts nothing', async () => {
    const seller = await createUser(t.ctx);
    const auction = await createAuction(t.ctx, seller.id, { starting_price: 1000 });
    const ana = await bidder('Ana');
    const watcher = await connect(t.url);
    await joined(watcher, auction.id);
    const seen = collectEvents(watcher, 'bid:placed');
    expect((await ana.api.post('/api/bids/', { auction_item_id: auction.id, amount: 1005 })).status).toBe(400);
    await sleep(150);
    expect(seen).toEqual([]);
  });
});

describe('notifications:count', () => {
  it('marking read in one tab updates the badge in every tab of that user only', async () => {
    const seller = await createUser(t.ctx);
    const auction = await createAuction(t.ctx, seller.id, { starting_price: 1000 });
    const ana = await bidder('Ana');
    const anaTab2 = await connect(t.url, { cookie: ana.api.cookieHeader });
    const bob = await bidder('Bob');
    const outbid = waitForEvent(ana.socket, 'notification:created');
    expect((await ana.api.post('/api/bids/', { auction_item_id: auction.id, amount: 1010 })).status).toBe(201);
    expect((await bob.api.post('/api/bids/', { auction_item_id: auction.id, amount: 1020 })).status).toBe(201);
    const note = await outbid;
    expect(note.unread_notifications_count).toBe(1);

    const bobCounts = collectEvents(bob.socket, 'notifications:count');
    const tab1 = waitForEvent(ana.socket, 'notifications:count');
    const tab2 = waitForEvent(anaTab2, 'notifications:count');
    const res = await ana.api.patch(`/api/notifications/${note.notification.id}/mark-as-read/`);
    expect(res.status).toBe(200);
    expect(await tab1).toEqual({ unread_notifications_count: 0 });
    expect(await tab2).toEqual({ unread_notifications_count: 0 });
    await sleep(100);
    expect(bobCounts).toEqual([]);
  });
});

describe('comment events', () => {
  it('comment:created and comment:deleted reach the seller watching the auction, with rising seq', async () => {
    const seller = await createUser(t.ctx, { first_name: 'Sava' });
    const sellerApi = await loginAs(t.url, seller);
    const auction = await createAuction(t.ctx, seller.id);
    const sellerSock = await connect(t.url, { cookie: sellerApi.cookieHeader });
    const seq0 = await joined(sellerSock, auction.id);
    const ana = await bidder('Ana');

    const created = waitForEvent(sellerSock, 'comment:created');
    const res = await ana.api.post('/api/comments/create/', { auction_item_id: auction.id, content: 'Da li je još dostupno?' });
    expect(res.status).toBe(201);
    const ev = await created;
    expect(ev).toMatchObject({ auction_id: auction.id, seq: seq0 + 1 });
    expect(ev.comment).toMatchObject({ id: res.body.id, userId: ana.id, user: 'Ana', content: 'Da li je još dostupno?', is_seller: false });

    const deleted = waitForEvent(sellerSock, 'comment:deleted');
    const del = await ana.api.delete(`/api/comments/${res.body.id}/delete/`);
    expect(del.status).toBeLessThan(300);
    expect(await deleted).toEqual({ auction_id: auction.id, seq: seq0 + 2, comment_id: res.body.id });
  });
});

describe('auction:closed', () => {
  it('watchers get the final state when the end passes', async () => {
    const seller = await createUser(t.ctx);
    const auction = await createAuction(t.ctx, seller.id, { starting_price: 1000, endsInMs: 1500 });
    const ana = await bidder('Ana');
    const watcher = await connect(t.url);
    const seq0 = await joined(watcher, auction.id);
    expect((await ana.api.post('/api/bids/', { auction_item_id: auction.id, amount: 1200 })).status).toBe(201);
    // The closing job is armed for the earliest end: just wait for it.
    const closed = await waitForEvent(watcher, 'auction:closed', 5000);
    expect(closed).toEqual({
      auction_id: auction.id,
      seq: seq0 + 2,
      status: 'ended',
      winner_id: ana.id,
      final_price: 1200,
      end_date: auction.end_date,
      outcome: 'sold',
    });
  });
});

describe('auction:deleted', () => {
  it('watchers learn that the seller deleted the auction, with the next seq', async () => {
    const seller = await createUser(t.ctx);
    const sellerApi = await loginAs(t.url, seller);
    const auction = await createAuction(t.ctx, seller.id);
    const watcher = await connect(t.url);
    const seq0 = await joined(watcher, auction.id);
    const deleted = waitForEvent(watcher, 'auction:deleted');
    expect((await sellerApi.delete(`/api/auctionItems/delete/${auction.id}/`)).status).toBe(204);
    expect(await deleted).toEqual({ auction_id: auction.id, seq: seq0 + 1 });
  });
});

describe('/media', () => {
  it('answers a missing image with 404 JSON, not the client page', async () => {
    const res = await fetch(`${t.url}/media/nema-ove-slike.webp`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });
});
