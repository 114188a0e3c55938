import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { actor, bid, type Actor } from '../../support/marketplace';
import { connectSocket, waitForEvent } from '../../support/sockets';

let t: TestServer;
let seller: Actor;
let ana: Actor;

beforeAll(async () => {
  t = await startTestServer();
  [seller, ana] = await Promise.all([actor(t, { first_name: 'Sanja Prodavac' }), actor(t, { first_name: 'Ana Anić' })]);
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/notifications/', () => {
  it('answers 403 when not logged in', async () => {
    const c = new ApiClient(t.url);
    expect((await c.get('/api/notifications/')).status).toBe(403);
    expect((await c.get('/api/notifications/unread-count/')).status).toBe(403);
  });

  it("lists only the user's own notifications, newest first, in the contract's shape", async () => {
    const s = await actor(t);
    const a1 = await createAuction(t.ctx, s.user.id, { title: 'Prva' });
    const a2 = await createAuction(t.ctx, s.user.id, { title: 'Druga' });
    await bid(ana.api, a1.id, 1010);
    await bid(ana.api, a2.id, 1010);
    const res = await s.api.get('/api/notifications/');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body.map((n) => n.auction_id)).toEqual([a2.id, a1.id]);
    expect(res.body[0]).toEqual({ id: expect.any(Number), message: expect.stringContaining('Druga'), is_read: false, created_at: expect.stringMatching(/Z$/), auction_id: a2.id, kind: 'new_bid' });
    expect((await ana.api.get('/api/notifications/')).body.some((n) => n.auction_id === a1.id)).toBe(false);
  });

  it('escapes user-provided parts so a title with <script> stays text', async () => {
    const s = await actor(t);
    const evil = await actor(t, { first_name: '<img src=x onerror=alert(1)>' });
    const a = await createAuction(t.ctx, s.user.id, { title: '<script>alert("x")</script>' });
    await bid(evil.api, a.id, 1010);
    const [n] = (await s.api.get('/api/notifications/')).body;
    expect(n.message).toContain(`<a href="/aukcija/${a.id}">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</a>`);
    expect(n.message).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(n.message).not.toMatch(/<script|<img/);
  });
});

describe('GET /api/notifications/unread-count/ and PATCH /api/notifications/{id}/mark-as-read/', () => {
  it('counts unread, marks own as read and pushes the new count to the user room', async () => {
    const s = await actor(t);
    const a1 = await createAuction(t.ctx, s.user.id);
    const a2 = await createAuction(t.ctx, s.user.id);
    const socket = await connectSocket(t.url, { cookie: s.api.cookieHeader });
    try {
      const created = waitForEvent(socket, 'notification:created', 5000);
      await bid(ana.api, a1.id, 1010);
      const ev = await created;
      expect(ev.unread_notifications_count).toBe(1);
      expect(ev.notification).toMatchObject({ is_read: false, auction_id: a1.id });
      await bid(ana.api, a2.id, 1010);
      expect((await s.api.get('/api/notifications/unread-count/')).body).toEqual({ unread_notifications_count: 2 });

      const count = waitForEvent(socket, 'notifications:count', 5000);
      const res = await s.api.patch(`/api/notifications/${ev.notification.id}/mark-as-read/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: ev.notification.id, is_read: true, unread_notifications_count: 1 });
      expect(await count).toEqual({ unread_notifications_count: 1 });
      expect((await s.api.get('/api/notifications/unread-count/')).body).toEqual({ unread_notifications_count: 1 });
      const list = (await s.api.get('/api/notifications/')).body;
      expect(list.find((n) => n.id === ev.notification.id)?.is_read).toBe(true);
      // Marking again is harmless.
      expect((await s.api.patch(`/api/notifications/${ev.notification.id}/mark-as-read/`)).status).toBe(200);
    } finally {
      socket.close();
    }
  });

  it("answers 404 for someone else's notification and leaves it unread", async () => {
    const s = await actor(t);
    const a = await createAuction(t.ctx, s.user.id);
    await bid(ana.api, a.id, 1010);
    const [n] = (await s.api.get('/api/notifications/')).body;
    const res = await ana.api.patch(`/api/notifications/${n.id}/mark-as-read/`);
    expect(res.status).toBe(404);
    expect((await s.api.get('/api/notifications/unread-count/')).body.unread_notifications_count).toBe(1);
  });

  it('answers 404 for unknown or malformed ids and 403 when not logged in', async () => {
    expect((await ana.api.patch('/api/notifications/999999/mark-as-read/')).status).toBe(404);
    expect((await ana.api.patch('/api/notifications/abc/mark-as-read/')).status).toBe(404);
    expect((await new ApiClient(t.url).patch('/api/notifications/1/mark-as-read/')).status).toBe(403);
  });

  it('sends a coalesced new-bid notification as notification:updated with the same id', async () => {
    const s = await actor(t);
    const a = await createAuction(t.ctx, s.user.id);
    const socket = await connectSocket(t.url, { cookie: s.api.cookieHeader });
    try {
      const created = waitForEvent(socket, 'notification:created', 5000);
      await bid(ana.api, a.id, 1010);
      const first = await created;
      const updated = waitForEvent(socket, 'notification:updated', 5000);
      await bid(seller.api, a.id, 1020);
      const second = await updated;
      expect(second.notification.id).toBe(first.notification.id);
      expect(second.notification.message).toContain('Broj novih ponuda: 2');
      expect(second.unread_notifications_count).toBe(1);
    } finally {
      socket.close();
    }
  });
});
