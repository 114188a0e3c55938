import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { actor, notificationsOf, watchAuction, type Actor } from '../../support/marketplace';
import { collectEvents, connectSocket, sleep, waitForEvent } from '../../support/sockets';
import { userRowsWritten } from '../../support/factories';

let t: TestServer;
let seller: Actor;
let ana: Actor;
let bojan: Actor;

beforeAll(async () => {
  t = await startTestServer();
  [seller, ana, bojan] = await Promise.all([
    actor(t, { first_name: 'Sanja Prodavac' }),
    actor(t, { first_name: 'Ana Anić' }),
    actor(t, { first_name: 'Bojan Bojić' }),
  ]);
});
afterAll(async () => {
  await t.close();
});

const post = (api: ApiClient, auctionId: unknown, content: unknown) =>
  api.post('/api/comments/create/', { auction_item_id: auctionId, content });

describe('POST /api/comments/create/', () => {
  it('answers 403 when not logged in', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    expect((await post(new ApiClient(t.url), a.id, 'Zdravo')).status).toBe(403);
  });

  it('answers 403 for a user blocked after logging in', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const u = await actor(t);
    await t.ctx.db.updateTable('users').set({ blocked_at: new Date().toISOString() }).where('id', '=', u.user.id).execute();
    await userRowsWritten(t.ctx);
    expect((await post(u.api, a.id, 'Zdravo')).status).toBe(403);
    expect((await ana.api.get(`/api/comments/${a.id}/`)).body).toEqual([]);
  });

  it('creates a trimmed comment → 201 with the comment', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const res = await post(ana.api, a.id, '   Da li je još dostupno?  \n');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ userId: ana.user.id, user: 'Ana Anić', content: 'Da li je još dostupno?', is_seller: false });
    expect(typeof res.body.id).toBe('number');
    expect(res.body.created_at).toMatch(/Z$/);
  });

  it("refuses empty or whitespace-only content with the spec's message", async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    for (const content of ['', '   \n\t', undefined, null]) {
      const res = await post(ana.api, a.id, content);
      expect(res.status).toBe(400);
      expect(res.body.content).toEqual(['Komentar ne može biti prazan.']);
    }
  });

  it('accepts 300 characters and refuses 301', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    expect((await post(ana.api, a.id, 'a'.repeat(300))).status).toBe(201);
    const res = await post(ana.api, a.id, 'a'.repeat(301));
    expect(res.status).toBe(400);
    expect(res.body.content).toEqual(['Komentar ne može biti duži od 300 karaktera.']);
  });

  it('answers 404 for an unknown auction', async () => {
    expect((await post(ana.api, 999999, 'Zdravo')).status).toBe(404);
  });

  it('notifies the seller of a comment, with the text escaped, but not of their own comment', async () => {
    const s = await actor(t, { first_name: 'Prodavac <b>Komentari</b>' });
    const a = await createAuction(t.ctx, s.user.id, { title: 'Lampa & sto' });
    expect((await post(ana.api, a.id, 'Cena <img src=x onerror=alert(1)>?')).status).toBe(201);
    const n = await notificationsOf(t, s.user.id, 'new_comment');
    expect(n).toHaveLength(1);
    expect(n[0].message).toContain(`<a href="/aukcija/${a.id}">Lampa &amp; sto</a>`);
    expect(n[0].message).toContain('Ana Anić: Cena &lt;img src=x onerror=alert(1)&gt;?');
    expect(n[0].message).not.toContain('<img');
    const own = await post(s.api, a.id, 'Odgovor prodavca');
    expect(own.body.is_seller).toBe(true);
    expect(await notificationsOf(t, s.user.id, 'new_comment')).toHaveLength(1);
  });

  it('tells watchers of the auction live, with the seq of the change', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const watcher = await connectSocket(t.url);
    try {
      await watchAuction(t, watcher, a.id);
      const created = waitForEvent(watcher, 'comment:created', 5000);
      const res = await post(bojan.api, a.id, 'Uživo');
      const ev = await created;
      expect(ev).toEqual({ auction_id: a.id, seq: a.seq + 1, comment: res.body });
      const deleted = waitForEvent(watcher, 'comment:deleted', 5000);
      expect((await bojan.api.delete(`/api/comments/${res.body.id}/delete/`)).status).toBe(204);
      expect(await deleted).toEqual({ auction_id: a.id, seq: a.seq + 2, comment_id: res.body.id });
    } finally {
      watcher.close();
    }
  });
});

describe('GET /api/comments/{auctionId}/', () => {
  it('lists comments newest first, publicly, with the seller marked', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    await post(ana.api, a.id, 'Prvi');
    await post(seller.api, a.id, 'Drugi');
    await post(bojan.api, a.id, 'Treći');
    const res = await new ApiClient(t.url).get(`/api/comments/${a.id}/`);
    expect(res.status).toBe(200);
    expect(res.body.map((c) => [c.content, c.user, c.userId, c.is_seller])).toEqual([
      ['Treći', 'Bojan Bojić', bojan.user.id, false],
      ['Drugi', 'Sanja Prodavac', seller.user.id, true],
      ['Prvi', 'Ana Anić', ana.user.id, false],
    ]);
    expect(Object.keys(res.body[0]).sort()).toEqual(['content', 'created_at', 'id', 'is_seller', 'user', 'userId']);
  });

  it('answers 404 for an unknown auction', async () => {
    expect((await new ApiClient(t.url).get('/api/comments/999999/')).status).toBe(404);
  });
});

describe('DELETE /api/comments/{commentId}/delete/', () => {
  it('answers 403 when not logged in', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const c = await post(ana.api, a.id, 'Ostaje');
    expect((await new ApiClient(t.url).delete(`/api/comments/${c.body.id}/delete/`)).status).toBe(403);
  });

  it('lets the author delete their comment → 204', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const c = await post(ana.api, a.id, 'Brišem');
    expect((await ana.api.delete(`/api/comments/${c.body.id}/delete/`)).status).toBe(204);
    expect((await ana.api.get(`/api/comments/${a.id}/`)).body).toEqual([]);
  });

  it("lets the auction's seller delete any comment on it → 204", async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const c = await post(ana.api, a.id, 'Neprimereno');
    expect((await seller.api.delete(`/api/comments/${c.body.id}/delete/`)).status).toBe(204);
    expect((await ana.api.get(`/api/comments/${a.id}/`)).body).toEqual([]);
  });

  it('refuses anyone else with 403 and keeps the comment', async () => {
    const a = await createAuction(t.ctx, seller.user.id);
    const c = await post(ana.api, a.id, 'Moj komentar');
    const watcher = await connectSocket(t.url);
    try {
      await watchAuction(t, watcher, a.id);
      const seen = collectEvents(watcher, 'comment:deleted');
      expect((await bojan.api.delete(`/api/comments/${c.body.id}/delete/`)).status).toBe(403);
      await sleep(100);
      expect(seen).toEqual([]);
    } finally {
      watcher.close();
    }
    expect((await ana.api.get(`/api/comments/${a.id}/`)).body).toHaveLength(1);
  });

  it('answers 404 for an unknown comment', async () => {
    expect((await ana.api.delete('/api/comments/999999/delete/')).status).toBe(404);
  });
});
