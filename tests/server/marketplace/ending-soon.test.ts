/**
 * Issue 14, ending-soon alerts: when ENDING_SOON_SECONDS of an auction are left, each watcher and each bidder
 * whose watch started, or whose first bid was placed, before that moment gets one `ending_soon` notification,
 * live through user:{id}. Exactly once per auction and user: not again after a soft-close extension, not
 * twice when several sweeps race, not again after a restart; and a window that opened while the server was
 * down is still sent after the start. Real HTTP, real sockets, the real closer's timer; ENDING_SOON_SECONDS small.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config';
import type { AppContext } from '../../../server/context';
import { isoAt } from '../../../server/lib/time';
import { minutesLeft, sendDueEndingSoon } from '../../../server/features/auctions/closing.ending-soon';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction, type AuctionOpts } from '../../support/auctions';
import { actor, auctionRow, bid, eventually, notificationsOf, type Actor } from '../../support/marketplace';
import { collectEvents, sleep, socketTracker, type TestSocket } from '../../support/sockets';
import { userRowsWritten } from '../../support/factories';

const ALERT = 'se završava za';
const alertText = (id: number, titleHtml: string, minutes: string) => `Aukcija <a href="/aukcija/${id}">${titleHtml}</a> se završava za ${minutes}.`;

/** The user's ending-soon notifications of one auction, from the database. */
async function alertsOf(t: TestServer, userId: number, auctionId: number) {
  return (await notificationsOf(t, userId, 'ending_soon')).filter((n) => n.auction_id === auctionId);
}

/** Live ending-soon notifications of one auction seen by a socket. */
function liveAlerts(socket: TestSocket) {
  const seen = collectEvents(socket, 'notification:created');
  return (auctionId: number) => seen.filter((e) => e.notification.auction_id === auctionId && e.notification.message.includes(ALERT));
}

/**
 * An auction and its watch and bid rows, written in one transaction (so the closer, which runs every second,
 * sees all of them or none): rows older than the window are how a test gets "watched/bid before the window
 * opened" for an auction that is already inside it.
 */
async function auctionWith(
  t: TestServer,
  sellerId: number,
  opts: AuctionOpts,
  rows: { watches?: [userId: number, atMs: number][]; bids?: [userId: number, amount: number, atMs: number][] },
) {
  return t.ctx.db.transaction().execute(async (tx) => {
    // The factory uses ctx.db only (spreading ctx would read ctx.sqlite, which throws on PostgreSQL).
    const a = await createAuction({ db: tx } as unknown as AppContext, sellerId, opts);
    for (const [userId, at] of rows.watches ?? []) await tx.insertInto('watchlist').values({ user_id: userId, auction_id: a.id, created_at: isoAt(at) }).execute();
    for (const [userId, amount, at] of rows.bids ?? []) {
      await tx.insertInto('bids').values({ auction_id: a.id, bidder_id: userId, amount, created_at: isoAt(at) }).execute();
      await tx.updateTable('auctions').set({ current_price: amount, bid_count: (eb) => eb('bid_count', '+', 1) }).where('id', '=', a.id).execute();
    }
    return a;
  });
}

describe('ending soon (ENDING_SOON_SECONDS=2, SOFT_CLOSE_SECONDS=3)', () => {
  let t: TestServer;
  let seller: Actor;
  const sockets = socketTracker();

  beforeAll(async () => {
    t = await startTestServer({ ENDING_SOON_SECONDS: '2', SOFT_CLOSE_SECONDS: '3' });
    seller = await actor(t);
  });
  afterAll(async () => {
    sockets.closeAll();
    await t?.close();
  });

  it('tells each watcher and bidder once, live; nobody who came inside the window; never again after an extension', async () => {
    const [watcher, bidder, both, lateWatcher, lateBidder] = await Promise.all([actor(t), actor(t), actor(t), actor(t), actor(t)]);
    const live = new Map<Actor, ReturnType<typeof liveAlerts>>();
    for (const who of [watcher, bidder, both, lateWatcher, lateBidder, seller]) live.set(who, liveAlerts(await sockets.connect(t.url, { cookie: who.api.cookieHeader })));

    const a = await createAuction(t.ctx, seller.user.id, { endsInMs: 6000, title: 'Lampa <stara> & lepa' });
    const windowStart = Date.parse(a.end_date) - 2000;
    expect((await watcher.api.post('/api/watchlist/', { auction_item_id: a.id })).status).toBe(201);
    expect((await bid(bidder.api, a.id, 1010)).status).toBe(201);
    expect((await both.api.post('/api/watchlist/', { auction_item_id: a.id })).status).toBe(201);
    expect((await bid(both.api, a.id, 1020)).status).toBe(201);

    // Nothing before the window opens (the claim itself checks the window, so this cannot race).
    await sleep(windowStart - 600 - Date.now());
    expect(await alertsOf(t, watcher.user.id, a.id)).toEqual([]);

    const text = alertText(a.id, 'Lampa &lt;stara&gt; &amp; lepa', '1 minut');
    await eventually(() => live.get(watcher)!(a.id).length === 1, 3000);
    const sentAt = Date.now();
    // The closer aims its timer at the window's start (it would poll within a second anyway).
    expect(sentAt).toBeGreaterThanOrEqual(windowStart);
    for (const who of [watcher, bidder, both]) {
      await eventually(() => live.get(who)!(a.id).length === 1);
      expect(live.get(who)!(a.id)[0]!.notification.message).toBe(text);
    }
    expect((await auctionRow(t, a.id)).ending_soon_at).not.toBeNull();

    // Inside the window: a new watcher, and a first bid that extends the end (1.x s left < 3 s soft close) to
    // now + 3 s, which puts the auction outside its 2 s window again until it re-enters a second later.
    expect((await lateWatcher.api.post('/api/watchlist/', { auction_item_id: a.id })).status).toBe(201);
    const late = await bid(lateBidder.api, a.id, 1030);
    expect(late.status).toBe(201);
    expect(Date.parse(late.body.end_date)).toBeGreaterThan(Date.parse(a.end_date));
    expect(Date.parse(late.body.end_date) - Date.now()).toBeGreaterThan(2000);

    await eventually(async () => (await auctionRow(t, a.id)).status === 'ended', 6000);
    await sleep(300);
    for (const who of [watcher, bidder, both]) {
      const stored = await alertsOf(t, who.user.id, a.id);
      expect(stored.map((n) => n.message), who.user.first_name).toEqual([text]);
      expect(live.get(who)!(a.id), who.user.first_name).toHaveLength(1);
    }
    for (const who of [lateWatcher, lateBidder, seller]) {
      expect(await alertsOf(t, who.user.id, a.id), who.user.first_name).toEqual([]);
      expect(live.get(who)!(a.id)).toEqual([]);
    }
    // The user's own list shows it too, unread.
    const list = (await watcher.api.get('/api/notifications/')).body;
    expect(list.find((n) => n.auction_id === a.id && n.message === text)).toMatchObject({ is_read: false });
  }, 20_000);

  it('sends once when several sweeps race (another node, a manual sweep) with the timer', async () => {
    const [w1, w2] = await Promise.all([actor(t), actor(t)]);
    const long = Date.now() - 60_000;
    const auctions = await Promise.all(
      [0, 1, 2].map(() => auctionWith(t, seller.user.id, { endsInMs: 1500 }, { watches: [[w1.user.id, long], [w2.user.id, long]], bids: [[w1.user.id, 1010, long]] })),
    );
    await Promise.all([sendDueEndingSoon(t.ctx), sendDueEndingSoon(t.ctx), sendDueEndingSoon(t.ctx)]);
    await sleep(1200);
    for (const a of auctions) {
      expect(await alertsOf(t, w1.user.id, a.id)).toHaveLength(1);
      expect(await alertsOf(t, w2.user.id, a.id)).toHaveLength(1);
    }
  });

  it('is not sent to the seller watching their own auction, nor to a blocked watcher or bidder', async () => {
    const [w, blockedWatcher, blockedBidder] = await Promise.all([actor(t), actor(t), actor(t)]);
    const long = Date.now() - 60_000;
    const a = await auctionWith(
      t,
      seller.user.id,
      { endsInMs: 1500 },
      { watches: [[w.user.id, long], [seller.user.id, long], [blockedWatcher.user.id, long]], bids: [[blockedBidder.user.id, 1010, long]] },
    );
    await t.ctx.db.updateTable('users').set({ blocked_at: new Date().toISOString() }).where('id', 'in', [blockedWatcher.user.id, blockedBidder.user.id]).execute();
    await userRowsWritten(t.ctx);
    await sendDueEndingSoon(t.ctx);
    expect(await alertsOf(t, w.user.id, a.id)).toHaveLength(1);
    for (const who of [seller, blockedWatcher, blockedBidder]) expect(await alertsOf(t, who.user.id, a.id), who.user.first_name).toEqual([]);
    expect((await auctionRow(t, a.id)).ending_soon_at).not.toBeNull();
  });

  it('skips an auction that is not open any more, and one whose window has not opened', async () => {
    const w = await actor(t);
    const long = Date.now() - 60_000;
    const ended = await auctionWith(t, seller.user.id, { endsInMs: 1000, status: 'ended' }, { watches: [[w.user.id, long]] });
    const later = await auctionWith(t, seller.user.id, { endsInMs: 60_000 }, { watches: [[w.user.id, long]] });
    await sendDueEndingSoon(t.ctx);
    await sleep(1100);
    expect(await alertsOf(t, w.user.id, ended.id)).toEqual([]);
    expect(await alertsOf(t, w.user.id, later.id)).toEqual([]);
    expect((await auctionRow(t, later.id)).ending_soon_at).toBeNull();
  });
});

describe('ending soon with the default ENDING_SOON_SECONDS (900)', () => {
  it('says how many minutes are left, and picks who was there before the window by the stored times', async () => {
    const t = await startTestServer();
    try {
      const seller = await actor(t);
      const [early, inside, earlyBidder, insideBidder] = await Promise.all([actor(t), actor(t), actor(t), actor(t)]);
      const now = Date.now();
      // 14 min 40 s left: the window (15 min) opened 20 s ago.
      const a = await auctionWith(
        t,
        seller.user.id,
        { endsInMs: 14 * 60_000 + 40_000, title: 'Bicikl' },
        {
          watches: [
            [early.user.id, now - 3_600_000],
            [inside.user.id, now - 10_000],
          ],
          bids: [
            [earlyBidder.user.id, 1010, now - 1_800_000],
            [insideBidder.user.id, 1020, now - 5_000],
            [earlyBidder.user.id, 1030, now - 1_000],
          ],
        },
      );
      await eventually(async () => (await alertsOf(t, early.user.id, a.id)).length === 1, 3000);
      await sleep(1100);
      for (const who of [early, earlyBidder]) expect((await alertsOf(t, who.user.id, a.id)).map((n) => n.message)).toEqual([alertText(a.id, 'Bicikl', '15 minuta')]);
      for (const who of [inside, insideBidder, seller]) expect(await alertsOf(t, who.user.id, a.id)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('ENDING_SOON_SECONDS: 900 by default, 0 turns the alert off, a negative or non-number value stops the start', async () => {
    expect(loadConfig({}).endingSoonSeconds).toBe(900);
    expect(loadConfig({ ENDING_SOON_SECONDS: '30' }).endingSoonSeconds).toBe(30);
    expect(() => loadConfig({ ENDING_SOON_SECONDS: '-1' })).toThrow(/ENDING_SOON_SECONDS/);
    expect(() => loadConfig({ ENDING_SOON_SECONDS: 'pola sata' })).toThrow(ConfigError);
    const t = await startTestServer({ ENDING_SOON_SECONDS: '0' });
    try {
      const seller = await actor(t);
      const w = await actor(t);
      const a = await auctionWith(t, seller.user.id, { endsInMs: 1500 }, { watches: [[w.user.id, Date.now() - 60_000]] });
      expect(await sendDueEndingSoon(t.ctx)).toBe(0);
      await eventually(async () => (await auctionRow(t, a.id)).status === 'ended', 4000);
      expect(await alertsOf(t, w.user.id, a.id)).toEqual([]);
      expect((await auctionRow(t, a.id)).ending_soon_at).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('rounds the minutes left, and says at least 1', () => {
    const end = '2026-11-24T12:00:00.000Z';
    const at = (msBefore: number) => minutesLeft(end, Date.parse(end) - msBefore);
    expect(at(900_000)).toBe(15);
    expect(at(14 * 60_000 + 31_000)).toBe(15);
    expect(at(14 * 60_000 + 29_000)).toBe(14);
    expect(at(89_000)).toBe(1);
    expect(at(20_000)).toBe(1);
    expect(at(0)).toBe(1);
  });
});

describe('ending soon across a restart (ENDING_SOON_SECONDS=2)', () => {
  const env = { ENDING_SOON_SECONDS: '2', SOFT_CLOSE_SECONDS: '0' };

  it('is not sent a second time by a server started again inside the window', async () => {
    const first = await startTestServer(env);
    const dataDir = first.dataDir;
    let auctionId: number;
    let watcherId: number;
    let bidderId: number;
    try {
      const seller = await actor(first);
      const [watcher, bidder] = await Promise.all([actor(first), actor(first)]);
      watcherId = watcher.user.id;
      bidderId = bidder.user.id;
      const a = await createAuction(first.ctx, seller.user.id, { endsInMs: 4000 });
      auctionId = a.id;
      expect((await watcher.api.post('/api/watchlist/', { auction_item_id: a.id })).status).toBe(201);
      expect((await bid(bidder.api, a.id, 1010)).status).toBe(201);
      await eventually(async () => (await alertsOf(first, watcherId, auctionId)).length === 1, 4000);
    } finally {
      await first.close();
    }
    const second = await startTestServer(env, { dataDir });
    try {
      // Still inside the window (the auction ends ~2 s after the alert): the new closer sweeps at start and
      // every second, and finds it claimed.
      expect((await auctionRow(second, auctionId!)).status).toBe('active');
      await sleep(1200);
      expect(await sendDueEndingSoon(second.ctx)).toBe(0);
      expect(await alertsOf(second, watcherId!, auctionId!)).toHaveLength(1);
      expect(await alertsOf(second, bidderId!, auctionId!)).toHaveLength(1);
    } finally {
      await second.close();
    }
  }, 15_000);

  it('is still sent when the window opened while the server was down', async () => {
    const first = await startTestServer(env);
    const dataDir = first.dataDir;
    let auctionId: number;
    let watcherId: number;
    let endMs: number;
    try {
      const seller = await actor(first);
      const watcher = await actor(first);
      watcherId = watcher.user.id;
      const a = await createAuction(first.ctx, seller.user.id, { endsInMs: 4500 });
      auctionId = a.id;
      endMs = Date.parse(a.end_date);
      expect((await watcher.api.post('/api/watchlist/', { auction_item_id: a.id })).status).toBe(201);
    } finally {
      await first.close();
    }
    // Down while the window opens (2 s before the end).
    await sleep(endMs! - 2000 + 400 - Date.now());
    const second = await startTestServer(env, { dataDir });
    try {
      await eventually(async () => (await alertsOf(second, watcherId!, auctionId!)).length === 1, 3000);
      const [alert] = await alertsOf(second, watcherId!, auctionId!);
      expect(Date.parse(alert!.created_at)).toBeLessThan(endMs!);
      expect(alert!.message).toContain('se završava za 1 minut.');
      await sleep(1200);
      expect(await alertsOf(second, watcherId!, auctionId!)).toHaveLength(1);
    } finally {
      await second.close();
    }
  }, 15_000);
});
