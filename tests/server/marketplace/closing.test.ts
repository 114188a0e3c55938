import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser } from '../../support/factories';
import { actor, auctionRow, bid, eventually, notificationsOf, watchAuction, type Actor } from '../../support/marketplace';
import { collectEvents, connectSocket, sleep, waitForEvent } from '../../support/sockets';
import { closeDueAuctions } from '../../../server/features/auctions/closing';
import { sqliteDriver } from '../../../server/db/sqlite-driver';
import { openAppDatabase } from '../../../server/db/connection';

// The tests of one server run concurrently (independent auctions): the lifecycle is mostly waiting.
describe.concurrent('auction lifecycle (AUCTION_DAY_SECONDS=2, SOFT_CLOSE_SECONDS=2)', () => {
  let t: TestServer;
  let seller: Actor;
  let ana: Actor;
  let bojan: Actor;

  beforeAll(async () => {
    t = await startTestServer({ AUCTION_DAY_SECONDS: '2', SOFT_CLOSE_SECONDS: '2' });
    [seller, ana, bojan] = await Promise.all([
      actor(t, { first_name: 'Sanja <Prodavac>', phone_number: '0601112223' }),
      actor(t, { first_name: 'Ana Anić', phone_number: '0644445556', email: 'ana.lifecycle@example.com' }),
      actor(t, { first_name: 'Bojan Bojić' }),
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('extends on late bids, closes exactly once, notifies winner and seller, then refuses bids', async () => {
    const watcher = await connectSocket(t.url);
    const a = await createAuction(t.ctx, seller.user.id, { endsInMs: 4000, title: 'Gitara', phone_number: '0609998887' });
    const originalEnd = Date.parse(a.end_date);
    await watchAuction(t, watcher, a.id);
    const closedEvents = collectEvents(watcher, 'auction:closed');
    const placed = collectEvents(watcher, 'bid:placed');
    try {
      // 4 s left > 2 s: no extension.
      const first = await bid(ana.api, a.id, 1010);
      expect(first.status).toBe(201);
      expect(first.body.end_date).toBe(a.end_date);

      // ~1 s left: the end moves to now + 2 s.
      await sleep(originalEnd - 1000 - Date.now());
      const before = Date.now();
      const late = await bid(bojan.api, a.id, 1020);
      expect(late.status).toBe(201);
      const extended = Date.parse(late.body.end_date);
      expect(extended).toBeGreaterThan(originalEnd);
      expect(extended).toBeGreaterThanOrEqual(before + 2000);
      expect(extended).toBeLessThanOrEqual(Date.now() + 2000);

      // Past the original end the auction is still open, and another late bid extends again.
      await sleep(originalEnd + 200 - Date.now());
      expect((await auctionRow(t, a.id)).status).toBe('active');
      const last = await bid(ana.api, a.id, 1030);
      expect(last.status).toBe(201);
      const finalEnd = last.body.end_date as string;
      expect(Date.parse(finalEnd)).toBeGreaterThan(extended);

      const closed = await waitForEvent(watcher, 'auction:closed', 8000);
      expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(finalEnd));
      expect(closed).toMatchObject({ auction_id: a.id, status: 'ended', winner_id: ana.user.id, final_price: 1030, end_date: finalEnd });
      expect(closed.seq).toBe(placed[placed.length - 1].seq + 1);
      expect(placed.map((p) => p.end_date)).toEqual([a.end_date, late.body.end_date, finalEnd]);

      const refused = await bid(bojan.api, a.id, 5000);
      expect(refused.status).toBe(400);
      expect(refused.body.amount).toEqual(['Aukcija je završena.']);

      // Another timer round and a manual sweep change nothing.
      await sleep(1200);
      await closeDueAuctions(t.ctx);
      expect(closedEvents).toHaveLength(1);
      const row = await auctionRow(t, a.id);
      expect(row).toMatchObject({ status: 'ended', winner_id: ana.user.id, current_price: 1030, bid_count: 3, end_date: finalEnd });
      expect(row.closed_at).not.toBeNull();

      const mine = (n: { auction_id: number | null }) => n.auction_id === a.id;
      const won = (await notificationsOf(t, ana.user.id, 'won')).filter(mine);
      expect(won).toHaveLength(1);
      expect(won[0].message).toContain(`<a href="/aukcija/${a.id}">Gitara</a>`);
      expect(won[0].message).toContain('1.030 din.');
      expect(won[0].message).toContain('Prodavac: Sanja &lt;Prodavac&gt;');
      expect(won[0].message).toContain('Telefon: 0609998887');
      const ended = (await notificationsOf(t, seller.user.id, 'auction_ended')).filter(mine);
      expect(ended).toHaveLength(1);
      expect(ended[0].message).toContain('Kupac: Ana Anić');
      expect(ended[0].message).toContain('Email: ana.lifecycle@example.com');
      expect(ended[0].message).toContain('Telefon: 0644445556');
      expect((await notificationsOf(t, bojan.user.id, 'won')).filter(mine)).toHaveLength(0);
      // The winner sees it over HTTP as well.
      const list = (await ana.api.get('/api/notifications/')).body;
      expect(list.find((n) => n.id === won[0].id)?.message).toContain('Čestitamo! Pobedili ste');
    } finally {
      watcher.close();
    }
  });

  it('pushes the close to the winner and the seller live', async () => {
    const winnerSocket = await connectSocket(t.url, { cookie: ana.api.cookieHeader });
    const sellerSocket = await connectSocket(t.url, { cookie: seller.api.cookieHeader });
    const a = await createAuction(t.ctx, seller.user.id, { endsInMs: 1500 });
    try {
      expect((await bid(ana.api, a.id, 1010)).status).toBe(201);
      const won = collectEvents(winnerSocket, 'notification:created');
      const sold = collectEvents(sellerSocket, 'notification:created');
      const ofThis = (e: { notification: { auction_id: number | null; message: string } }, text: string) =>
        e.notification.auction_id === a.id && e.notification.message.includes(text);
      await eventually(() => won.some((e) => ofThis(e, 'Pobedili ste')), 4000);
      await eventually(() => sold.some((e) => ofThis(e, 'je završena')));
    } finally {
      winnerSocket.close();
      sellerSocket.close();
    }
  });

  it("tells the seller when the auction ended without bids", async () => {
    const a = await createAuction(t.ctx, seller.user.id, { endsInMs: 200, title: 'Bez ponuda' });
    await eventually(async () => (await auctionRow(t, a.id)).status === 'ended', 4000);
    const row = await auctionRow(t, a.id);
    expect(row.winner_id).toBeNull();
    const n = (await notificationsOf(t, seller.user.id, 'auction_ended')).filter((x) => x.auction_id === a.id);
    expect(n).toHaveLength(1);
    expect(n[0].message).toBe(`Vaša aukcija <a href="/aukcija/${a.id}">Bez ponuda</a> je završena bez ponuda.`);
  });

  it('closes an auction created through POST /api/auctionItems/ after its duration in AUCTION_DAY_SECONDS', async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({
      title: 'Brza aukcija',
      description: 'Traje jedan dan od dve sekunde',
      current_price: '100',
      auction_duration: '1',
      city: 'Niš',
      phone_number: '0641234567',
      category: 'other',
    }))
      form.append(k, v);
    const res = await seller.api.post('/api/auctionItems/', form);
    expect(res.status).toBe(201);
    const row = await auctionRow(t, res.body.id);
    expect(Date.parse(row.end_date) - Date.parse(row.created_at)).toBeGreaterThanOrEqual(1990);
    expect(Date.parse(row.end_date) - Date.parse(row.created_at)).toBeLessThanOrEqual(2100);
    await eventually(async () => (await auctionRow(t, res.body.id)).status === 'ended', 4500);
  });

  it('is idempotent when several closers race (another node, a manual sweep)', async () => {
    const auctions = await Promise.all(Array.from({ length: 5 }, () => createAuction(t.ctx, seller.user.id, { endsInMs: -1 })));
    await Promise.all([closeDueAuctions(t.ctx), closeDueAuctions(t.ctx), closeDueAuctions(t.ctx)]);
    await eventually(async () => {
      const rows = await Promise.all(auctions.map((a) => auctionRow(t, a.id)));
      return rows.every((r) => r.status === 'ended');
    });
    const ids = new Set(auctions.map((a) => a.id));
    const n = (await notificationsOf(t, seller.user.id, 'auction_ended')).filter((x) => ids.has(x.auction_id!));
    expect(n).toHaveLength(5);
  });
});

describe('closing after a restart', () => {
  it('closes auctions that ended while the server was down, exactly once', async () => {
    const env = { SOFT_CLOSE_SECONDS: '0' };
    const a1 = await startTestServer(env);
    const dataDir = a1.dataDir;
    let auctionId: number;
    let winnerId: number;
    let sellerId: number;
    try {
      const seller = await createUser(a1.ctx, { first_name: 'Prodavac Restart' });
      sellerId = seller.id;
      const buyer = await actor(a1, { first_name: 'Kupac Restart' });
      winnerId = buyer.user.id;
      const a = await createAuction(a1.ctx, seller.id, { endsInMs: 2000 });
      auctionId = a.id;
      expect((await bid(buyer.api, a.id, 1500)).status).toBe(201);
    } finally {
      await a1.close();
    }
    await sleep(2300);
    // Nobody closed it while the server was down.
    expect(await statusWhileDown(dataDir, a1.ctx.config.databaseUrl, auctionId!)).toEqual({ status: 'active' });

    const b = await startTestServer(env, { dataDir });
    try {
      await eventually(async () => (await auctionRow(b, auctionId)).status === 'ended', 3000);
      expect(await auctionRow(b, auctionId)).toMatchObject({ status: 'ended', winner_id: winnerId, current_price: 1500 });
    } finally {
      await b.close();
    }
    // A third start finds nothing left to close: still one notification each.
    const c = await startTestServer(env, { dataDir });
    try {
      await sleep(300);
      expect(await closeDueAuctions(c.ctx)).toBe(0);
      expect((await notificationsOf(c, winnerId, 'won')).filter((n) => n.auction_id === auctionId)).toHaveLength(1);
      expect((await notificationsOf(c, sellerId, 'auction_ended')).filter((n) => n.auction_id === auctionId)).toHaveLength(1);
    } finally {
      await c.close();
    }
  });
});

/** The auction's status read straight from the database of a server that is down (SQLite read-only). */
async function statusWhileDown(dataDir: string, databaseUrl: string | undefined, auctionId: number): Promise<unknown> {
  if (databaseUrl) {
    const h = await openAppDatabase({ databaseUrl, file: '' });
    try {
      return await h.db.selectFrom('auctions').select('status').where('id', '=', auctionId).executeTakeFirst();
    } finally {
      await h.close();
    }
  }
  const file = new (sqliteDriver())(path.join(dataDir, 'aukcije.sqlite'), { readonly: true });
  try {
    return file.prepare('select status from auctions where id = ?').get(auctionId);
  } finally {
    file.close();
  }
}
