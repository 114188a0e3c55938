import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDataDir, type TestServer } from '../../support/app';
import { createUser, loginAs } from '../../support/factories';
import { ApiClient } from '../../support/http';
import { redactUrl } from '../../../server/features/accounts/startup';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('CSRF', () => {
  it('refuses a state-changing request without the header, with a wrong one, or from a foreign origin (403 JSON)', async () => {
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    const missing = await c.put('/api/update-profile/', { first_name: 'Haker' }, { csrf: false });
    const wrong = await c.put('/api/update-profile/', { first_name: 'Haker' }, { csrf: 'x'.repeat(40) });
    const foreign = await c.put('/api/update-profile/', { first_name: 'Haker' }, { headers: { origin: 'https://evil.example' } });
    for (const res of [missing, wrong, foreign]) {
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.body.detail).toMatch(/CSRF/);
    }
    expect((await c.get('/api/current_user_data/')).body.first_name).toBe(u.first_name);
  });

  it("does not accept another visitor's token", async () => {
    const u = await createUser(t.ctx);
    const victim = await loginAs(t.url, u);
    const attacker = new ApiClient(t.url);
    const token = await attacker.ensureCsrf();
    const res = await victim.put('/api/update-profile/', { first_name: 'Haker' }, { csrf: token });
    expect(res.status).toBe(403);
  });

  it('renews the token at login', async () => {
    const u = await createUser(t.ctx);
    const c = new ApiClient(t.url);
    const before = await c.ensureCsrf();
    await c.post('/api/login/', { email: u.email, password: u.password });
    expect(c.csrfToken()).toBeDefined();
    expect(c.csrfToken()).not.toBe(before);
  });
});

describe('sessions', () => {
  it('the session cookie is HttpOnly and SameSite=Lax', async () => {
    const u = await createUser(t.ctx);
    const c = new ApiClient(t.url);
    const res = await c.post('/api/login/', { email: u.email, password: u.password });
    const line = res.headers.getSetCookie().find((l) => l.startsWith('sessionid='))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
  });

  it('survive a server restart on the same DATA_DIR and SESSION_SECRET', async () => {
    const dataDir = tempDataDir();
    const env = { SESSION_SECRET: 'restart-secret-restart-secret-123' };
    const first = await startTestServer(env, { dataDir });
    const u = await createUser(first.ctx, { first_name: 'Trajni Korisnik' });
    const c = await loginAs(first.url, u);
    const cookie = c.cookieHeader;
    await first.close();
    const second = await startTestServer(env, { dataDir });
    try {
      const res = await fetch(`${second.url}/api/current_user_data/`, { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { first_name: string }).first_name).toBe('Trajni Korisnik');
    } finally {
      await second.close();
    }
  });
});

describe('errors', () => {
  it('answers malformed JSON, wrong types and huge bodies with 4xx JSON, never 500', async () => {
    const c = new ApiClient(t.url);
    const bad = await c.post('/api/user/register/', undefined, { raw: '{"first_name": ', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('Zahtev nije ispravan JSON.');

    const types = await c.post('/api/login/', { email: 5, password: ['x'] });
    expect(types.status).toBe(400);
    expect(types.body.detail).toBe('Molim vas da unesete vaš email i lozinku!');

    const nested = await c.post('/api/user/register/', { first_name: { $gt: '' }, email: ['a@b.rs'], phone_number: null, password: true });
    expect(nested.status).toBe(400);
    expect(nested.body.email).toEqual(['Email je obavezan.']);

    const huge = await c.post('/api/user/register/', { first_name: 'x'.repeat(200 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body.detail).toBe('Zahtev je prevelik.');

    const form = await c.post('/api/login/', undefined, { raw: 'email=a', headers: { 'content-type': 'text/plain' } });
    expect(form.status).toBe(400);
  });

  it('answers unknown /api paths with 404 JSON, also for POST', async () => {
    const c = new ApiClient(t.url);
    for (const res of [await c.get('/api/nepostoji/'), await c.post('/api/nepostoji/', {})]) {
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.body.detail).toBe('Traženi resurs ne postoji.');
    }
  });

  it('never leaks a stack trace', async () => {
    const res = await new ApiClient(t.url).post('/api/login/', undefined, { raw: '{', headers: { 'content-type': 'application/json' } });
    expect(res.text).not.toMatch(/at .*\.ts:\d+|node_modules|SyntaxError/);
  });
});

describe('helmet', () => {
  it('sends a CSP that allows Google sign-in on HTML pages and API answers', async () => {
    for (const path of ['/', '/login', '/api/user/status/']) {
      const res = await fetch(t.url + path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain('https://accounts.google.com/gsi/client');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});

describe('request logs', () => {
  it('redact verification codes and OAuth secrets from URLs', () => {
    expect(redactUrl('/api/verify/abcDEF123_-xyz/')).toBe('/api/verify/[redacted]/');
    expect(redactUrl('/api/auth/google/callback?code=4/abc&state=xyz')).toBe('/api/auth/google/callback?code=[redacted]&state=[redacted]');
    expect(redactUrl('/api/auctions/?category=electronics')).toBe('/api/auctions/?category=electronics');
  });
});

describe('behind https', () => {
  it('marks the session and CSRF cookies Secure when PUBLIC_URL is https (TLS ends at a proxy)', async () => {
    const s = await startTestServer({ PUBLIC_URL: 'https://aukcije.example', TRUST_PROXY: '1' });
    const headers = { 'x-forwarded-proto': 'https' };
    try {
      const u = await createUser(s.ctx);
      const c = new ApiClient(s.url, 'https://aukcije.example');
      const csrf = await c.get('/api/csrf/', { headers });
      expect(csrf.headers.getSetCookie().find((l) => l.startsWith('csrftoken='))).toMatch(/;\s*Secure/i);
      const res = await c.post('/api/login/', { email: u.email, password: u.password }, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie().find((l) => l.startsWith('sessionid='))).toMatch(/;\s*Secure/i);
    } finally {
      await s.close();
    }
  });
});
