/**
 * Issue 24, reports and the moderation queue over real HTTP: POST /api/reports/ with every rule, GET
 * /api/admin/reports/ (the exact shape, filters, pages), POST /api/admin/reports/{id}/resolve/ (dismiss,
 * delete_target, block_owner; a closed report; the reporter's `report_resolved` notification naming no admin).
 * The audit log is in audit-log.test.ts. Runs on SQLite and, through `node scripts/test-pg.mjs`, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminReport, AdminReportsPage } from '@shared/schemas/reports';
import { REPORTS_PER_HOUR } from '@shared/rules/reports';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { actor, bid, notificationsOf, type Actor } from '../../support/marketplace';
import { saleOf } from '../../support/sales';
import { userRowsWritten } from '../../support/factories';

let t: TestServer;
let seller: Actor;
let reporter: Actor;
let admin: Actor;
let visitor: ApiClient;

beforeAll(async () => {
  t = await startTestServer();
  [seller, reporter, admin] = await Promise.all([
    actor(t, { first_name: 'Prodavac' }),
    actor(t, { first_name: 'Prijavilac' }),
    actor(t, { first_name: 'Adminka', admin: true }),
  ]);
  visitor = new ApiClient(t.url);
  await visitor.ensureCsrf();
});
afterAll(async () => {
  await t?.close();
});

const report = (api: ApiClient, body: Record<string, unknown>) => api.post('/api/reports/', body);
const resolve = (id: number | string, body: unknown, api = admin.api) => api.post(`/api/admin/reports/${id}/resolve/`, body);
const auctionOf = (sellerId = seller.user.id, title = 'Polovan bicikl') => createAuction(t.ctx, sellerId, { title });
async function commentOn(author: Actor, auctionId: number, content = 'Ovo je prevara, ne kupujte.'): Promise<number> {
  const res = await author.api.post('/api/comments/create/', { auction_item_id: auctionId, content });
  expect(res.status).toBe(201);
  return (res.body as { id: number }).id;
}
async function reportsPage(query = '') {
  const res = await admin.api.get(`/api/admin/reports/${query}`);
  expect(res.status).toBe(200);
  return AdminReportsPage.parse(res.body);
}
async function adminReport(id: number): Promise<AdminReport> {
  const page = await reportsPage('?page_size=100');
  return page.results.find((r) => r.id === id)!;
}

describe('POST /api/reports/', () => {
  it('refuses a visitor and an unverified member with 403', async () => {
    const a = await auctionOf();
    expect((await report(visitor, { target_type: 'auction', target_id: a.id, reason: 'fraud' })).status).toBe(403);
    // Logged in, then unverified (an unverified member cannot log in at all).
    const unverified = await actor(t);
    await t.ctx.db.updateTable('users').set({ verified_at: null }).where('id', '=', unverified.user.id).execute();
    await userRowsWritten(t.ctx);
    expect((await report(unverified.api, { target_type: 'auction', target_id: a.id, reason: 'fraud' })).status).toBe(403);
  });

  it('files a report (201 open); the same reporter on the same target while it is open gets that report (200)', async () => {
    const a = await auctionOf();
    const first = await report(reporter.api, { target_type: 'auction', target_id: a.id, reason: 'fraud', text: '  Traži uplatu unapred. ' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.any(Number), status: 'open' });
    const again = await report(reporter.api, { target_type: 'auction', target_id: a.id, reason: 'spam' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const stored = await adminReport((first.body as { id: number }).id);
    expect(stored).toMatchObject({ reason: 'fraud', text: 'Traži uplatu unapred.' });
    // Closed: a new report is a new one.
    await resolve(stored.id, { action: 'dismiss' });
    const third = await report(reporter.api, { target_type: 'auction', target_id: a.id, reason: 'spam' });
    expect(third.status).toBe(201);
    expect((third.body as { id: number }).id).not.toBe(stored.id);
  });

  it("refuses one's own auction, comment or oneself with 400", async () => {
    const a = await auctionOf();
    const own = await report(seller.api, { target_type: 'auction', target_id: a.id, reason: 'fraud' });
    expect(own.status).toBe(400);
    expect(own.body).toMatchObject({ code: 'own_target' });
    const c = await commentOn(reporter, a.id);
    expect((await report(reporter.api, { target_type: 'comment', target_id: c, reason: 'offensive' })).status).toBe(400);
    expect((await report(reporter.api, { target_type: 'member', target_id: reporter.user.id, reason: 'spam' })).status).toBe(400);
    // Someone else's comment is fine.
    expect((await report(seller.api, { target_type: 'comment', target_id: c, reason: 'offensive' })).status).toBe(201);
  });

  it('checks reason, text (≤ 500, required for other), target type and id, with the message under the field', async () => {
    const a = await auctionOf();
    const base = { target_type: 'auction', target_id: a.id };
    const badReason = await report(reporter.api, { ...base, reason: 'boring' });
    expect(badReason.status).toBe(400);
    expect(badReason.body).toMatchObject({ reason: ['Izaberite razlog prijave.'] });
    const noText = await report(reporter.api, { ...base, reason: 'other', text: '   ' });
    expect(noText.status).toBe(400);
    expect(noText.body).toMatchObject({ text: ['Opišite razlog prijave.'] });
    const long = await report(reporter.api, { ...base, reason: 'fraud', text: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body).toHaveProperty('text');
    expect((await report(reporter.api, { target_type: 'post', target_id: a.id, reason: 'fraud' })).body).toHaveProperty('target_type');
    expect((await report(reporter.api, { target_type: 'auction', target_id: 'abc', reason: 'fraud' })).body).toHaveProperty('target_id');
    expect((await report(reporter.api, { ...base, reason: 'other', text: 'y'.repeat(500) })).status).toBe(201);
  });

  it('answers 404 for a target that does not exist', async () => {
    const res = await report(reporter.api, { target_type: 'auction', target_id: 999_999, reason: 'fraud' });
    expect(res.status).toBe(404);
    expect((await report(reporter.api, { target_type: 'member', target_id: 999_999, reason: 'spam' })).status).toBe(404);
  });

  it('takes non_payment only against a member who won an auction of the reporter', async () => {
    const [s, winner, stranger] = await Promise.all([actor(t), actor(t, { first_name: 'Kupac' }), actor(t)]);
    const sale = await saleOf(t.ctx, s.user.id, winner.user.id);
    const onAuction = await report(s.api, { target_type: 'auction', target_id: sale.id, reason: 'non_payment' });
    expect(onAuction.status).toBe(400);
    expect(onAuction.body).toHaveProperty('reason');
    const notWinner = await report(s.api, { target_type: 'member', target_id: stranger.user.id, reason: 'non_payment' });
    expect(notWinner.status).toBe(400);
    expect(notWinner.body).toMatchObject({ code: 'not_your_winner' });
    // The winner may not use it against the seller either (they won from them, not the other way round).
    expect((await report(winner.api, { target_type: 'member', target_id: s.user.id, reason: 'non_payment' })).status).toBe(400);
    expect((await report(s.api, { target_type: 'member', target_id: winner.user.id, reason: 'non_payment' })).status).toBe(201);
  });

  it(`answers 429 past ${REPORTS_PER_HOUR} reports an hour`, async () => {
    const busy = await actor(t);
    for (let i = 0; i < REPORTS_PER_HOUR; i++) {
      const a = await auctionOf();
      expect((await report(busy.api, { target_type: 'auction', target_id: a.id, reason: 'spam' })).status).toBe(201);
    }
    const a = await auctionOf();
    const res = await report(busy.api, { target_type: 'auction', target_id: a.id, reason: 'spam' });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'rate_limited' });
  });
});

describe('GET /api/admin/reports/', () => {
  it('refuses a visitor and a member with 403', async () => {
    expect((await visitor.get('/api/admin/reports/')).status).toBe(403);
    expect((await reporter.api.get('/api/admin/reports/')).status).toBe(403);
  });

  it('shows each report with its target as it is now, its reporter and the count on the target', async () => {
    const [owner, other] = await Promise.all([actor(t, { first_name: 'Vlasnik' }), actor(t, { first_name: 'Drugi' })]);
    const a = await auctionOf(owner.user.id, 'Sumnjiv telefon');
    const r1 = (await report(reporter.api, { target_type: 'auction', target_id: a.id, reason: 'fraud', text: 'Lažne slike.' })).body as { id: number };
    await report(other.api, { target_type: 'auction', target_id: a.id, reason: 'prohibited' });
    const c = await commentOn(owner, a.id, 'Kupite kod mene van sajta');
    const r3 = (await report(reporter.api, { target_type: 'comment', target_id: c, reason: 'spam' })).body as { id: number };
    const r4 = (await report(reporter.api, { target_type: 'member', target_id: owner.user.id, reason: 'offensive' })).body as { id: number };
    const page = await reportsPage('?status=open&page_size=100');
    const byId = new Map(page.results.map((r) => [r.id, r]));
    expect(byId.get(r1.id)).toEqual({
      id: r1.id,
      target_type: 'auction',
      target_id: a.id,
      target: { title: 'Sumnjiv telefon', owner: { id: owner.user.id, first_name: 'Vlasnik' } },
      reason: 'fraud',
      text: 'Lažne slike.',
      reporter: { id: reporter.user.id, first_name: 'Prijavilac' },
      status: 'open',
      created_at: expect.stringMatching(/Z$/),
      resolved_at: null,
      resolution: null,
      reports_on_target: 2,
    });
    expect(byId.get(r3.id)!.target).toEqual({ content: 'Kupite kod mene van sajta', owner: { id: owner.user.id, first_name: 'Vlasnik' } });
    expect(byId.get(r4.id)!.target).toEqual({ first_name: 'Vlasnik', owner: { id: owner.user.id, first_name: 'Vlasnik' } });
    // Newest first.
    const ids = page.results.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    // Deleted: the target is null.
    expect((await admin.api.delete(`/api/auctionItems/delete/${a.id}/`)).status).toBe(204);
    expect((await adminReport(r1.id)).target).toBeNull();
  });

  it('filters by status, pages by 20 (page_size above 100 taken as 100) and refuses a bad status', async () => {
    const open = await reportsPage('?status=open&page_size=1');
    expect(open.results).toHaveLength(1);
    expect(open.next).toBe(2);
    expect(open.results.every((r) => r.status === 'open')).toBe(true);
    const dismissed = await reportsPage('?status=dismissed');
    expect(dismissed.results.every((r) => r.status === 'dismissed')).toBe(true);
    const all = await reportsPage('?page_size=1000');
    expect(all.count).toBeGreaterThan(open.count);
    expect(all.results.length).toBe(Math.min(all.count, 100));
    const bad = await admin.api.get('/api/admin/reports/?status=closed');
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('status');
  });
});

describe('POST /api/admin/reports/{id}/resolve/', () => {
  it('refuses a member with 403 and answers 404 for an unknown report, 400 for an unknown action', async () => {
    const a = await auctionOf();
    const r = (await report(reporter.api, { target_type: 'auction', target_id: a.id, reason: 'fraud' })).body as { id: number };
    expect((await resolve(r.id, { action: 'dismiss' }, reporter.api)).status).toBe(403);
    expect((await resolve(999_999, { action: 'dismiss' })).status).toBe(404);
    const bad = await resolve(r.id, { action: 'ban' });
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('action');
  });

  it('dismiss closes this report only; the reporter is told without the admin being named; a closed report is 400', async () => {
    const other = await actor(t);
    const a = await auctionOf();
    const mine = (await report(reporter.api, { target_type: 'auction', target_id: a.id, reason: 'spam' })).body as { id: number };
    const theirs = (await report(other.api, { target_type: 'auction', target_id: a.id, reason: 'spam' })).body as { id: number };
    const res = await resolve(mine.id, { action: 'dismiss', note: ' Nije spam. ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: mine.id,
      status: 'dismissed',
      resolved_at: expect.stringMatching(/Z$/),
      resolution: { action: 'dismiss', note: 'Nije spam.', admin: { id: admin.user.id, first_name: 'Adminka' } },
    });
    expect((await adminReport(theirs.id)).status).toBe('open');
    const notes = await notificationsOf(t, reporter.user.id, 'report_resolved');
    expect(notes.at(-1)!.message).toContain('Polovan bicikl');
    expect(notes.at(-1)!.message).not.toContain('Adminka');
    // Mailed too (issue 27's hook: `report_resolved` is an e-mail kind), queued in the same transaction.
    const mails = await t.ctx.db.selectFrom('mail_queue').select(['kind', 'message']).where('user_id', '=', reporter.user.id).where('kind', '=', 'report_resolved').execute();
    expect(mails.length).toBeGreaterThan(0);
    expect(mails.every((m) => !m.message.includes('Adminka'))).toBe(true);
    const listed = await reporter.api.get('/api/notifications/');
    expect((listed.body as Array<{ kind: string }>).some((n) => n.kind === 'report_resolved')).toBe(true);
    const again = await resolve(mine.id, { action: 'block_owner' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'report_closed', detail: 'Ova prijava je već zatvorena.' });
    expect(await t.ctx.db.selectFrom('users').select('blocked_at').where('id', '=', seller.user.id).executeTakeFirstOrThrow()).toEqual({ blocked_at: null });
  });

  it('delete_target deletes an auction with bids and resolves every open report on it', async () => {
    const [owner, bidder, other] = await Promise.all([actor(t), actor(t), actor(t)]);
    const a = await createAuction(t.ctx, owner.user.id, { title: 'Lažni sat', current_price: 1000, starting_price: 1000 });
    expect((await bid(bidder.api, a.id, 1010)).status).toBe(201);
    const r1 = (await report(reporter.api, { target_type: 'auction', target_id: a.id, reason: 'fraud' })).body as { id: number };
    const r2 = (await report(other.api, { target_type: 'auction', target_id: a.id, reason: 'prohibited' })).body as { id: number };
    const res = await resolve(r1.id, { action: 'delete_target', note: 'Falsifikat.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'resolved', target: null, resolution: { action: 'delete_target', note: 'Falsifikat.' } });
    expect((await visitor.get(`/api/auction/${a.id}/`)).status).toBe(404);
    expect(await adminReport(r2.id)).toMatchObject({ status: 'resolved', resolution: { action: 'delete_target' } });
    expect((await notificationsOf(t, other.user.id, 'report_resolved')).at(-1)!.message).toContain('Lažni sat');
  });

  it('delete_target deletes a comment; for a member it is 400 and nothing changes', async () => {
    const a = await auctionOf();
    const c = await commentOn(seller, a.id, 'Pišite mi na privatni broj');
    const rc = (await report(reporter.api, { target_type: 'comment', target_id: c, reason: 'spam' })).body as { id: number };
    expect((await resolve(rc.id, { action: 'delete_target' })).status).toBe(200);
    const comments = (await visitor.get(`/api/comments/${a.id}/`)).body as Array<{ id: number }>;
    expect(comments.map((x) => x.id)).not.toContain(c);
    const member = await actor(t);
    const rm = (await report(reporter.api, { target_type: 'member', target_id: member.user.id, reason: 'offensive' })).body as { id: number };
    const res = await resolve(rm.id, { action: 'delete_target' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'cannot_delete_member' });
    expect((await adminReport(rm.id)).status).toBe('open');
  });

  it('block_owner blocks the owner as the admin block does (sessions end) and resolves every open report on the target', async () => {
    const [owner, other] = await Promise.all([actor(t, { first_name: 'Prevarant' }), actor(t)]);
    const a = await auctionOf(owner.user.id, 'Nepostojeći laptop');
    const r1 = (await report(reporter.api, { target_type: 'auction', target_id: a.id, reason: 'fraud' })).body as { id: number };
    const r2 = (await report(other.api, { target_type: 'auction', target_id: a.id, reason: 'fraud' })).body as { id: number };
    expect((await owner.api.get('/api/current_user_data/')).status).toBe(200);
    const res = await resolve(r2.id, { action: 'block_owner' });
    expect(res.status).toBe(200);
    const users = (await admin.api.get('/api/admin/users/?q=Prevarant&page=1')).body as { results: Array<{ id: number; is_blocked: boolean }> };
    expect(users.results.find((u) => u.id === owner.user.id)!.is_blocked).toBe(true);
    expect((await owner.api.get('/api/current_user_data/')).status).toBe(403);
    expect((await adminReport(r1.id)).status).toBe('resolved');
    // A member report blocks the member itself.
    const m = await actor(t);
    const rm = (await report(reporter.api, { target_type: 'member', target_id: m.user.id, reason: 'fraud' })).body as { id: number };
    expect((await resolve(rm.id, { action: 'block_owner' })).status).toBe(200);
    expect((await t.ctx.db.selectFrom('users').select('blocked_at').where('id', '=', m.user.id).executeTakeFirstOrThrow()).blocked_at).not.toBeNull();
  });
});
