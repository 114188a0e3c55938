/**
 * The accepted path's statements (issue 14, B1auto; docs/performance.md): a request that writes several rows
 * moves the auction once and inserts its rows in one statement, and the seller's coalesced notification is one
 * read and one rewrite. Each row still gets its own seq, bid_count and `bid:placed` (auto-bids.test.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { actor, auctionRow, bid, notificationsOf, type Actor } from '../../support/marketplace';
import { recordStatementsOf, type StatementLog } from '../../support/statements';

let t: TestServer;
let seller: Actor;
let ana: Actor;
let bojan: Actor;
let log: StatementLog;

beforeAll(async () => {
  t = await startTestServer();
  [seller, ana, bojan] = await Promise.all([actor(t, { first_name: 'Prodavac' }), actor(t, { first_name: 'Ana' }), actor(t, { first_name: 'Bojan' })]);
  log = recordStatementsOf(t.ctx);
});
afterAll(async () => {
  log?.stop();
  await t?.close();
});

const writesAuction = () => log.sources.filter((s) => /^update "auctions"/i.test(s)).length;
const insertsBids = () => log.sources.filter((s) => /^insert into "bids"/i.test(s)).length;

it('a maximum beating another writes its two rows with one auction update and one insert; the seller is told in two statements', async () => {
  const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
  const setMax = (who: Actor, max: number) => who.api.put(`/api/auctions/${a.id}/auto-bid/`, { max_amount: max });
  expect((await bid(bojan.api, a.id, 1010)).status).toBe(201);
  expect((await setMax(bojan, 1500)).status).toBe(200);

  log.reset();
  const res = await setMax(ana, 2000);
  expect(res.body).toMatchObject({ leading: true, current_price: 1510 });
  // Bojan's maximum answered at 1500, then Ana's row at 1510: two rows, seq and bid_count one apart.
  const rows = (await ana.api.get(`/api/bids/${a.id}/`)).body as { amount: number; auto: boolean }[];
  expect(rows.map((r) => [r.amount, r.auto])).toEqual([
    [1010, false],
    [1500, true],
    [1510, true],
  ]);
  expect(await auctionRow(t, a.id)).toMatchObject({ current_price: 1510, bid_count: 3, seq: a.seq + 3 });
  expect(writesAuction()).toBe(1);
  expect(insertsBids()).toBe(1);
  // Under the lock the leader, Bojan's maximum and his name (for his automatic row) are one read.
  expect(log.sources.filter((s) => /^select \* from "bids"/i.test(s) || /^select "id", "first_name" from "users"/i.test(s))).toEqual([]);
  expect(log.sources.filter((s) => /^select \(select "bidder_id" from "bids"/i.test(s) && /"first_name"/.test(s))).toHaveLength(1);

  // The seller's 'new_bid' notification was made by the first bid: rewritten with the burst's count.
  const notices = log.sources.filter((s) => /from "notifications" as "n"/i.test(s) || /^update "notifications"/i.test(s));
  expect(notices).toHaveLength(2);
  const forSeller = await notificationsOf(t, seller.user.id, 'new_bid');
  expect(forSeller).toHaveLength(1);
  expect(forSeller[0]!.message).toContain('Broj novih ponuda: 3');
});

it("the seller's burst is counted from bid_count, not by reading the bids; a notice from before that column still counts the bids", async () => {
  const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
  const sellerNotice = async () => (await notificationsOf(t, seller.user.id, 'new_bid')).find((n) => n.auction_id === a.id)!;
  expect((await bid(ana.api, a.id, 1010)).status).toBe(201);
  expect((await bid(bojan.api, a.id, 1020)).status).toBe(201);
  // Dates of the rows no longer matter: the count is where the burst began (bid_count 0) to bid_count now.
  await t.ctx.db.updateTable('bids').set({ created_at: '2000-01-01T00:00:00.000Z' }).where('auction_id', '=', a.id).execute();
  expect((await bid(ana.api, a.id, 1030)).status).toBe(201);
  expect((await sellerNotice()).message).toContain('Broj novih ponuda: 3');
  // A notice made before migration 2026-11-24-1500 (no bids_before): the bids since it was made, by date.
  const notice = await sellerNotice();
  await t.ctx.db.updateTable('notifications').set({ bids_before: null }).where('id', '=', notice.id).execute();
  expect((await bid(bojan.api, a.id, 1040)).status).toBe(201);
  expect((await sellerNotice()).message).toContain('Broj novih ponuda: 2');
});

it('statements on the active maximum write `active = 1` into the SQL (a bound value makes SQLite re-prepare them on every run)', async () => {
  const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
  log.reset();
  const setMax = (who: Actor, max: number) => who.api.put(`/api/auctions/${a.id}/auto-bid/`, { max_amount: max });
  expect((await setMax(ana, 1500)).status).toBe(200);
  expect((await setMax(bojan, 1400)).status).toBe(200); // answered at once by Ana's maximum
  expect((await setMax(bojan, 1300)).status).toBe(400); // refused from the one read
  expect((await setMax(bojan, 2000)).status).toBe(200); // beats Ana's
  // Filters, that is: an upsert may still bind the value it sets.
  const filters = log.sources.filter((s) => /"auto_bids"/.test(s) && /\bwhere\b.*"active" = /.test(s));
  expect(filters.length).toBeGreaterThanOrEqual(4);
  expect(filters.filter((s) => /\bwhere\b.*"active" = (\?|\$\d+)/.test(s))).toEqual([]);
});

it("a beaten maximum's outbid mail inside its window is folded in one statement, and the mail worker is woken only for a mail due now", async () => {
  const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
  const setMax = (who: Actor, max: number) => who.api.put(`/api/auctions/${a.id}/auto-bid/`, { max_amount: max });
  const woken: boolean[] = [];
  t.ctx.events.subscribe((events) => {
    for (const e of events) if (e.type === 'notification:changed' && e.change.type === 'created' && e.change.userId === ana.user.id) woken.push(e.change.mailDue === true);
  });
  expect((await setMax(ana, 1500)).status).toBe(200);
  expect((await setMax(bojan, 2000)).status).toBe(200); // Ana's first outbid mail: due now
  expect((await setMax(ana, 2500)).status).toBe(200);
  expect((await setMax(bojan, 3000)).status).toBe(200); // Ana's second, inside the window: one mail at its end
  expect((await setMax(ana, 3500)).status).toBe(200);
  log.reset();
  expect((await setMax(bojan, 4000)).body).toMatchObject({ leading: true, current_price: 3510 }); // folded into it
  const mailStatements = log.sources.filter((s) => /"mail_queue"/.test(s));
  expect(mailStatements).toHaveLength(1);
  expect(mailStatements[0]).toMatch(/^update "mail_queue"/);
  expect(woken).toEqual([true, false, false]);
  const mails = await t.ctx.db.selectFrom('mail_queue').select(['folded', 'fold_count', 'message']).where('user_id', '=', ana.user.id).where('auction_id', '=', a.id).orderBy('id').execute();
  expect(mails.map((m) => [m.folded, m.fold_count])).toEqual([
    [0, 1],
    [1, 2],
  ]);
  expect(mails[1]!.message).toContain('3.500');
});
