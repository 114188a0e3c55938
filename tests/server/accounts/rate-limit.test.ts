import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser } from '../../support/factories';
import { ApiClient } from '../../support/http';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ RATE_LIMIT: '1' });
});
afterAll(async () => {
  await t.close();
});

describe('rate limits (RATE_LIMIT=1)', () => {
  it('stops password guessing on one account after 10 failures with 429 JSON in Serbian', async () => {
    const u = await createUser(t.ctx);
    const c = new ApiClient(t.url);
    for (let i = 0; i < 10; i++) {
      expect((await c.post('/api/login/', { email: u.email, password: `Pogresna${i}` })).status).toBe(401);
    }
    const blocked = await c.post('/api/login/', { email: u.email, password: u.password });
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toBe('Previše pokušaja. Sačekajte malo pa pokušajte ponovo.');
    expect(blocked.headers.get('retry-after')).toBeTruthy();
    // Another account from the same address is not affected.
    const other = await createUser(t.ctx);
    expect((await c.post('/api/login/', { email: other.email, password: other.password })).status).toBe(200);
  });

  it('does not count successful logins', async () => {
    const u = await createUser(t.ctx);
    for (let i = 0; i < 12; i++) {
      expect((await new ApiClient(t.url).post('/api/login/', { email: u.email, password: u.password })).status).toBe(200);
    }
  });

  it('limits password-reset mails per e-mail', async () => {
    const u = await createUser(t.ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await new ApiClient(t.url).post('/api/password-reset/', { email: u.email })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('limits verification-link requests per e-mail', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await new ApiClient(t.url).post('/api/verify/resend/', { email: 'neko@example.com' })).status);
    expect(statuses.at(-1)).toBe(429);
  });

  it('limits registrations per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await new ApiClient(t.url).post('/api/user/register/', { first_name: 'X', email: `rl${i}@example.com`, phone_number: '0641234567', password: 'Lozinka123' });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
