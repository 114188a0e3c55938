/**
 * `session:ended` (issue 11, point 2): when the server demotes a socket because its session ended (blocking,
 * logout, password change, expiry), it first tells that socket, so the page can send the user to /login
 * instead of going on as if logged in. Only the sockets of the ended sessions hear it: other users, anonymous
 * watchers and the same user's other still-valid sessions do not. Real server, real socket.io clients.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser, loginAs } from '../../support/factories';
import { createAuction } from '../../support/auctions';
import { collectEvents, emitWithAck, sleep, socketTracker, waitForEvent, type TestSocket } from '../../support/sockets';

let t: TestServer;
const sockets = socketTracker();
const connect = sockets.connect;

beforeAll(async () => {
  t = await startTestServer();
});
afterEach(sockets.closeAll);
afterAll(async () => {
  await t.close();
});

/** Everything a socket receives, by name and in order. */
function record(socket: TestSocket): [string, unknown][] {
  const seen: [string, unknown][] = [];
  (socket as unknown as { onAny(l: (e: string, p: unknown) => void): void }).onAny((e, p) => seen.push([e, p]));
  return seen;
}

/** After `session:ended`, the socket is out of user:{id} (no user events) but still watches its auction. */
async function expectDemoted(userId: number, socket: TestSocket, auctionId: number) {
  const userEvents = collectEvents(socket, 'notifications:count');
  t.ctx.realtime.toUser(userId, 'notifications:count', { unread_notifications_count: 42 });
  const watched = waitForEvent(socket, 'comment:deleted');
  t.ctx.realtime.toAuction(auctionId, 'comment:deleted', { auction_id: auctionId, seq: 1, comment_id: 7 });
  expect(await watched).toMatchObject({ comment_id: 7 });
  await sleep(100);
  expect(userEvents).toEqual([]);
  expect(socket.connected).toBe(true);
}

async function world() {
  const ana = await createUser(t.ctx);
  const bob = await createUser(t.ctx);
  const seller = await createUser(t.ctx);
  const auction = await createAuction(t.ctx, seller.id);
  const anaLaptop = await loginAs(t.url, ana);
  const anaPhone = await loginAs(t.url, ana);
  const bobClient = await loginAs(t.url, bob);
  const laptop = await connect(t.url, { cookie: anaLaptop.cookieHeader });
  const phone = await connect(t.url, { cookie: anaPhone.cookieHeader });
  const bobSock = await connect(t.url, { cookie: bobClient.cookieHeader });
  const anon = await connect(t.url);
  for (const s of [laptop, phone, bobSock, anon]) expect((await emitWithAck(s, 'auction:join', { auction_id: auction.id })).ok).toBe(true);
  const heard = {
    laptop: collectEvents(laptop, 'session:ended'),
    phone: collectEvents(phone, 'session:ended'),
    bob: collectEvents(bobSock, 'session:ended'),
    anon: collectEvents(anon, 'session:ended'),
  };
  return { ana, bob, auction, anaLaptop, anaPhone, bobClient, laptop, phone, bobSock, anon, heard };
}

describe('session:ended', () => {
  it('an admin blocking a user: each of that user’s sockets hears {reason: blocked} before leaving user:{id}; nobody else hears it', async () => {
    const w = await world();
    const admin = await createUser(t.ctx, { admin: true });
    const adminClient = await loginAs(t.url, admin);
    const adminSock = await connect(t.url, { cookie: adminClient.cookieHeader });
    const adminHeard = collectEvents(adminSock, 'session:ended');
    const order = record(w.laptop);

    const laptopEnded = waitForEvent(w.laptop, 'session:ended');
    const phoneEnded = waitForEvent(w.phone, 'session:ended');
    const res = await adminClient.post(`/api/admin/users/${w.ana.id}/block/`);
    expect(res.status).toBe(200);
    expect(await laptopEnded).toEqual({ reason: 'blocked' });
    expect(await phoneEnded).toEqual({ reason: 'blocked' });

    await expectDemoted(w.ana.id, w.laptop, w.auction.id);
    // Told first; then it is an anonymous watcher (the user event sent meanwhile never reached it).
    expect(order.map(([e]) => e)).toEqual(['session:ended', 'comment:deleted']);
    await expectDemoted(w.ana.id, w.phone, w.auction.id);
    await sleep(1100); // dropUser re-checks a moment later: already anonymous sockets are not told again
    expect(w.heard.laptop).toHaveLength(1);
    expect(w.heard.phone).toHaveLength(1);
    expect(w.heard.bob).toEqual([]);
    expect(w.heard.anon).toEqual([]);
    expect(adminHeard).toEqual([]);
  });

  it('logout: only the sockets of that session hear {reason: ended}; the same user’s other session keeps its room', async () => {
    const w = await world();
    const ended = waitForEvent(w.laptop, 'session:ended');
    expect((await w.anaLaptop.post('/api/logout/')).status).toBe(200);
    expect(await ended).toEqual({ reason: 'ended' });
    await expectDemoted(w.ana.id, w.laptop, w.auction.id);

    const phoneGot = waitForEvent(w.phone, 'notifications:count');
    t.ctx.realtime.toUser(w.ana.id, 'notifications:count', { unread_notifications_count: 3 });
    expect(await phoneGot).toEqual({ unread_notifications_count: 3 });
    await sleep(1100);
    expect(w.heard.laptop).toHaveLength(1);
    expect(w.heard.phone).toEqual([]);
    expect(w.heard.bob).toEqual([]);
    expect(w.heard.anon).toEqual([]);
  });

  it('a password change on the phone: the laptop’s socket hears {reason: ended}; other users do not', async () => {
    const w = await world();
    const ended = waitForEvent(w.laptop, 'session:ended');
    const res = await w.anaPhone.post('/api/change-password/', { old_password: w.ana.password, new_password: 'NovaLozinka9' });
    expect(res.status).toBe(200);
    expect(await ended).toEqual({ reason: 'ended' });
    await expectDemoted(w.ana.id, w.laptop, w.auction.id);
    // The phone's own socket was opened with the session id the change replaced: it hears it too and
    // re-reads /api/user/status/ (still logged in there, on the new id) — see docs/socket-contract.md.
    expect((await w.anaPhone.get('/api/user/status/')).body.is_authenticated).toBe(true);
    expect(w.heard.phone).toEqual([{ reason: 'ended' }]);
    expect(w.heard.bob).toEqual([]);
    expect(w.heard.anon).toEqual([]);
    // The phone reconnects with its new cookie and is back in its user room, without another session:ended.
    const again = await connect(t.url, { cookie: w.anaPhone.cookieHeader });
    const againHeard = collectEvents(again, 'session:ended');
    const got = waitForEvent(again, 'notifications:count');
    t.ctx.realtime.toUser(w.ana.id, 'notifications:count', { unread_notifications_count: 5 });
    expect(await got).toEqual({ unread_notifications_count: 5 });
    await sleep(1100);
    expect(againHeard).toEqual([]);
  });

  it('an expired session is caught by the periodic re-check and told {reason: ended}', async () => {
    const w = await world();
    const sid = decodeURIComponent(w.anaLaptop.cookies.get('sessionid')!).replace(/^s:/, '').split('.')[0]!;
    const changed = await t.ctx.db.updateTable('sessions').set({ expires: Date.now() - 1000 }).where('sid', '=', sid).executeTakeFirst();
    expect(Number(changed.numUpdatedRows)).toBe(1);
    const ended = waitForEvent(w.laptop, 'session:ended');
    expect(await t.ctx.realtime.recheckSessions()).toBe(1);
    expect(await ended).toEqual({ reason: 'ended' });
    await expectDemoted(w.ana.id, w.laptop, w.auction.id);
    expect(w.heard.phone).toEqual([]);
    expect(w.heard.bob).toEqual([]);
  });
});
