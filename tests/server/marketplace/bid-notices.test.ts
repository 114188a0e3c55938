/**
 * A manual bid's notifications after its broadcast (issue 30, B2; server/features/bids/bid-notices.ts): the bid's
 * transaction writes a notice, the watchers get `bid:placed`, then the notifications are written, before the
 * bid's answer. A notice nobody delivered (the process stopped after the commit) is delivered by the auction's
 * next bid, in the order the bids committed, or by the next start. Runs on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { actor, bid, eventually, notificationsOf, type Actor } from '../../support/marketplace';
import { recordStatementsOf } from '../../support/statements';
import { decideBid } from '../../../server/features/bids/bid-decision';
import type { User } from '../../../server/db/types';

let t: TestServer;
let seller: Actor;
let ana: Actor;
let bojan: Actor;
const others: TestServer[] = [];

beforeAll(async () => {
  t = await startTestServer();
  [seller, ana, bojan] = await Promise.all([actor(t, { first_name: 'Prodavac' }), actor(t, { first_name: 'Ana' }), actor(t, { first_name: 'Bojan' })]);
});
afterAll(async () => {
  for (const o of others) await o.close();
  await t?.close();
});

const notices = (auctionId: number) => t.ctx.db.selectFrom('bid_notices').select('id').where('auction_id', '=', auctionId).execute();

/** The bid's transaction alone, as if the process stopped right after its commit: the rows and the notice, no delivery. */
async function committedWithoutDelivery(bidder: User, auctionId: number, amount: number): Promise<void> {
  await t.ctx.db.transaction().execute((tx) => decideBid(tx, bidder, auctionId, { kind: 'manual', amount }, Date.now(), 0, true));
}

it("publishes the bid's broadcast before its notifications are written, and answers after they are", async () => {
  const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
  expect((await bid(ana.api, a.id, 1010)).status).toBe(201);
  const log = recordStatementsOf(t.ctx);
  let atBroadcast = -1;
  t.ctx.events.subscribe((events) => {
    if (atBroadcast < 0 && events.some((e) => e.type === 'bid:placed' && e.payload.auction_id === a.id && e.payload.bid.amount === 1020)) atBroadcast = log.sources.length;
  });
  try {
    expect((await bid(bojan.api, a.id, 1020)).status).toBe(201);
    const writesNotification = (s: string) => /^(insert into|update) "notifications"/i.test(s);
    expect(atBroadcast).toBeGreaterThan(0);
    // Before the broadcast: the bid's rows and its notice, no notification; after it: Ana's outbid and the seller's.
    expect(log.sources.slice(0, atBroadcast).filter(writesNotification)).toEqual([]);
    expect(log.sources.slice(0, atBroadcast).filter((s) => /^insert into "bid_notices"/i.test(s))).toHaveLength(1);
    expect(log.sources.slice(atBroadcast).filter(writesNotification)).toHaveLength(2);
  } finally {
    log.stop();
  }
  // The answer came after them: both are there, and no notice waits.
  expect((await notificationsOf(t, ana.user.id, 'outbid')).filter((n) => n.auction_id === a.id)).toHaveLength(1);
  const forSeller = (await notificationsOf(t, seller.user.id, 'new_bid')).filter((n) => n.auction_id === a.id);
  expect(forSeller).toHaveLength(1);
  expect(forSeller[0]!.message).toContain('Broj novih ponuda: 2');
  expect(await notices(a.id)).toEqual([]);
});

it("a notice left undelivered is delivered by the auction's next bid, before that bid's own, in the order they committed", async () => {
  const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
  expect((await bid(ana.api, a.id, 1010)).status).toBe(201);
  await committedWithoutDelivery(bojan.user, a.id, 1020);
  expect(await notices(a.id)).toHaveLength(1);
  expect((await notificationsOf(t, ana.user.id, 'outbid')).filter((n) => n.auction_id === a.id)).toEqual([]);

  expect((await bid(ana.api, a.id, 1030)).status).toBe(201);
  expect(await notices(a.id)).toEqual([]);
  // Ana was outbid by Bojan's 1020, then Bojan by her 1030; the seller's one notice counts all three bids and
  // names the last one (it would name 1020 had the notices been delivered out of order).
  const outbidAna = (await notificationsOf(t, ana.user.id, 'outbid')).filter((n) => n.auction_id === a.id);
  expect(outbidAna).toHaveLength(1);
  expect(outbidAna[0]!.message).toContain('1.020');
  expect((await notificationsOf(t, bojan.user.id, 'outbid')).filter((n) => n.auction_id === a.id)).toHaveLength(1);
  const forSeller = (await notificationsOf(t, seller.user.id, 'new_bid')).filter((n) => n.auction_id === a.id);
  expect(forSeller).toHaveLength(1);
  expect(forSeller[0]!.message).toContain('Broj novih ponuda: 3');
  expect(forSeller[0]!.message).toContain('1.030');
});

it('a notice a stopped process left is delivered when a server starts on the same database', async () => {
  const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
  expect((await bid(bojan.api, a.id, 1010)).status).toBe(201);
  await committedWithoutDelivery(ana.user, a.id, 1050);
  expect((await notificationsOf(t, bojan.user.id, 'outbid')).filter((n) => n.auction_id === a.id)).toEqual([]);

  others.push(await startTestServer({}, { dataDir: t.dataDir }));
  // At its start, not at a poll (which waits until a notice is 10 s old).
  await eventually(async () => (await notices(a.id)).length === 0, 3000);
  const outbid = (await notificationsOf(t, bojan.user.id, 'outbid')).filter((n) => n.auction_id === a.id);
  expect(outbid).toHaveLength(1);
  expect(outbid[0]!.message).toContain('1.050');
  const forSeller = (await notificationsOf(t, seller.user.id, 'new_bid')).filter((n) => n.auction_id === a.id);
  expect(forSeller).toHaveLength(1);
  expect(forSeller[0]!.message).toContain('Broj novih ponuda: 2');
});
