import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as ioClient, type Socket } from 'socket.io-client';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser, loginAs } from '../../support/factories';
import { ApiClient } from '../../support/http';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/admin/users/', () => {
  it('answers 403 to visitors and to ordinary users', async () => {
    expect((await new ApiClient(t.url).get('/api/admin/users/')).status).toBe(403);
    const u = await createUser(t.ctx);
    expect((await (await loginAs(t.url, u)).get('/api/admin/users/')).status).toBe(403);
  });

  it('lists every user with the admin fields', async () => {
    const admin = await createUser(t.ctx, { admin: true });
    const unverified = await createUser(t.ctx, { verified: false, first_name: 'Neverifikovan' });
    const blocked = await createUser(t.ctx, { blocked: true });
    const c = await loginAs(t.url, admin);
    const res = await c.get('/api/admin/users/');
    expect(res.status).toBe(200);
    const byId = new Map((res.body as Array<{ id: number }>).map((u) => [u.id, u]));
    expect(byId.get(unverified.id)).toEqual({
      id: unverified.id,
      first_name: 'Neverifikovan',
      email: unverified.email,
      is_verified: false,
      is_superuser: false,
      is_blocked: false,
      created_at: unverified.created_at,
    });
    expect(byId.get(admin.id)).toMatchObject({ is_superuser: true, is_verified: true });
    expect(byId.get(blocked.id)).toMatchObject({ is_blocked: true });
    expect(JSON.stringify(res.body)).not.toContain('argon2');
  });
});

describe('POST /api/admin/users/{id}/block/ and /unblock/', () => {
  it('answers 403 to an ordinary user and changes nothing', async () => {
    const u = await createUser(t.ctx);
    const other = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    expect((await c.post(`/api/admin/users/${other.id}/block/`)).status).toBe(403);
    expect((await c.post(`/api/admin/users/${other.id}/unblock/`)).status).toBe(403);
    const row = await t.ctx.db.selectFrom('users').select('blocked_at').where('id', '=', other.id).executeTakeFirstOrThrow();
    expect(row.blocked_at).toBeNull();
  });

  it('needs the CSRF token', async () => {
    const admin = await createUser(t.ctx, { admin: true });
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, admin);
    expect((await c.post(`/api/admin/users/${u.id}/block/`, undefined, { csrf: false })).status).toBe(403);
  });

  it('blocking ends every session of the user at once, drops their sockets and stops logins', async () => {
    const admin = await createUser(t.ctx, { admin: true });
    const u = await createUser(t.ctx);
    const a = await loginAs(t.url, u);
    const b = await loginAs(t.url, u);
    const socket: Socket = ioClient(t.url, { transports: ['websocket'], extraHeaders: { cookie: a.cookieHeader }, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    await expect.poll(async () => (await t.ctx.realtime.io.in(`user:${u.id}`).fetchSockets()).length).toBe(1);

    const c = await loginAs(t.url, admin);
    const res = await c.post(`/api/admin/users/${u.id}/block/`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: u.id, is_blocked: true });
    expect((await a.get('/api/user/status/')).body.is_authenticated).toBe(false);
    expect((await b.get('/api/current_user_data/')).status).toBe(403);
    expect((await t.ctx.realtime.io.in(`user:${u.id}`).fetchSockets()).length).toBe(0);
    socket.close();

    const login = await new ApiClient(t.url).post('/api/login/', { email: u.email, password: u.password });
    expect(login.status).toBe(403);
    expect(login.body.detail).toBe('Vaš nalog je blokiran.');

    expect((await c.post(`/api/admin/users/${u.id}/unblock/`)).body).toMatchObject({ is_blocked: false });
    expect((await new ApiClient(t.url).post('/api/login/', { email: u.email, password: u.password })).status).toBe(200);
  });

  it('an admin cannot block themselves', async () => {
    const admin = await createUser(t.ctx, { admin: true });
    const c = await loginAs(t.url, admin);
    const res = await c.post(`/api/admin/users/${admin.id}/block/`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('Ne možete blokirati sopstveni nalog.');
    expect((await c.get('/api/user/status/')).body.is_authenticated).toBe(true);
  });

  it('answers 404 for unknown or malformed ids', async () => {
    const admin = await createUser(t.ctx, { admin: true });
    const c = await loginAs(t.url, admin);
    expect((await c.post('/api/admin/users/999999/block/')).status).toBe(404);
    expect((await c.post('/api/admin/users/abc/block/')).status).toBe(404);
    expect((await c.post('/api/admin/users/-1/unblock/')).status).toBe(404);
  });
});
