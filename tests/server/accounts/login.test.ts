import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('GET /api/csrf/', () => {
  it('answers 200 {csrftoken} and sets a JS-readable csrftoken cookie', async () => {
    const c = new ApiClient(t.url);
    const res = await c.get('/api/csrf/');
    expect(res.status).toBe(200);
    expect(typeof res.body.csrftoken).toBe('string');
    expect(c.csrfToken()).toBe(res.body.csrftoken);
    const setCookie = res.headers.getSetCookie().find((l) => l.startsWith('csrftoken='))!;
    expect(setCookie).not.toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
  });
});

describe('POST /api/login/', () => {
  it('refuses a request without the CSRF header with 403 JSON', async () => {
    const c = new ApiClient(t.url);
    await c.ensureCsrf();
    const res = await c.post('/api/login/', { email: 'a@b.rs', password: 'x' }, { csrf: false });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/CSRF/);
  });

  it('logs a verified user in, changes the session id and reports the status', async () => {
    const user = await createUser(t.ctx, { first_name: 'Ana Anić' });
    const c = new ApiClient(t.url);
    await c.ensureCsrf();
    const before = c.cookies.get('sessionid');
    const res = await c.post('/api/login/', { email: user.email.toUpperCase(), password: user.password });
    expect(res.status).toBe(200);
    expect(res.body.redirect_url).toBeUndefined();
    expect(c.cookies.get('sessionid')).toBeDefined();
    expect(c.cookies.get('sessionid')).not.toBe(before);
    const status = await c.get('/api/user/status/');
    expect(status.body).toEqual({ is_authenticated: true, username: 'Ana Anić' });
    expect((await c.get('/api/username/')).body).toEqual({ username: 'Ana Anić' });
  });

  it('answers 401 with the spec message for a wrong password', async () => {
    const user = await createUser(t.ctx);
    const c = new ApiClient(t.url);
    const res = await c.post('/api/login/', { email: user.email, password: 'Pogresna123' });
    expect(res.status).toBe(401);
    expect(res.body.detail).toBe('Email ili lozinka nisu tačni!');
  });

  it('answers 403 for an unverified account', async () => {
    const user = await createUser(t.ctx, { verified: false });
    const res = await new ApiClient(t.url).post('/api/login/', { email: user.email, password: user.password });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('Vaš nalog nije verifikovan. Proverite vaš email.');
  });

  it("gives an admin redirect_url '/admin/dashboard'", async () => {
    const admin = await createUser(t.ctx, { admin: true });
    const c = new ApiClient(t.url);
    const res = await c.post('/api/login/', { email: admin.email, password: admin.password });
    expect(res.body.redirect_url).toBe('/admin/dashboard');
  });

  it('logout ends the session', async () => {
    const user = await createUser(t.ctx);
    const c = await loginAs(t.url, user);
    const oldCookie = c.cookieHeader;
    expect((await c.post('/api/logout/')).status).toBe(200);
    expect((await c.get('/api/user/status/')).body.is_authenticated).toBe(false);
    const replay = await fetch(`${t.url}/api/username/`, { headers: { cookie: oldCookie } });
    expect(replay.status).toBe(403);
  });
});

describe('errors', () => {
  it('answers unknown /api paths with 404 JSON', async () => {
    const res = await new ApiClient(t.url).get('/api/nema-ovoga/');
    expect(res.status).toBe(404);
    expect(res.body.detail).toBeTypeOf('string');
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const c = new ApiClient(t.url);
    const res = await c.post('/api/login/', undefined, { raw: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBeTypeOf('string');
  });
});
