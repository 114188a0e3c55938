/**
 * Passwords and login (issue 7 §4, ASVS 5.0 V6): the stored hash's parameters, online guessing, and
 * no account oracle at login. The 10-failure limit itself is in tests/server/accounts/rate-limit.test.ts;
 * here: the owner is not locked out from another address, and the limit also refuses the right password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/app';
import { createUser } from '../support/factories';
import { ApiClient } from '../support/http';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

/** `$argon2id$v=19$m=19456,p=1,t=2$salt$hash` → its parameters (any order); throws on another algorithm. */
function argon2Params(h: string): { m: number; t: number; p: number; saltBytes: number } {
  const m = h.match(/^\$argon2id\$v=19\$([a-z]=\d+(?:,[a-z]=\d+)*)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/);
  if (!m) throw new Error(`not an argon2id v19 hash: ${h.slice(0, 40)}`);
  const kv = Object.fromEntries(m[1].split(',').map((x) => [x[0], Number(x.slice(2))]));
  return { m: kv.m, t: kv.t, p: kv.p, saltBytes: Buffer.from(m[2], 'base64').length };
}

describe('password storage', () => {
  it('a password set through registration is stored as argon2id with m ≥ 19 MiB, t ≥ 2, p ≥ 1 and a unique salt', async () => {
    const c = new ApiClient(t.url);
    const emails = ['hash1@example.com', 'hash2@example.com'];
    for (const email of emails) {
      const res = await c.post('/api/user/register/', { first_name: 'Heš', email, phone_number: '0641234567', password: 'IstaLozinka1', city: '' });
      expect(res.status, res.text).toBe(201);
    }
    const hashes = (await t.ctx.db.selectFrom('users').select('password_hash').where('email', 'in', emails).execute()).map((r) => r.password_hash!);
    for (const h of hashes) {
      const p = argon2Params(h);
      expect(p.m).toBeGreaterThanOrEqual(19 * 1024);
      expect(p.t).toBeGreaterThanOrEqual(2);
      expect(p.p).toBeGreaterThanOrEqual(1);
      expect(p.saltBytes).toBeGreaterThanOrEqual(16);
      expect(h).not.toContain('IstaLozinka1');
    }
    expect(hashes[0]).not.toBe(hashes[1]);
  });

  it('a changed password is stored with the same parameters', async () => {
    const u = await createUser(t.ctx);
    const c = new ApiClient(t.url);
    expect((await c.post('/api/login/', { email: u.email, password: u.password })).status).toBe(200);
    expect((await c.post('/api/change-password/', { old_password: u.password, new_password: 'Promenjena123' })).status).toBe(200);
    const row = await t.ctx.db.selectFrom('users').select('password_hash').where('id', '=', u.id).executeTakeFirstOrThrow();
    const p = argon2Params(row.password_hash!);
    expect([p.m >= 19 * 1024, p.t >= 2, p.p >= 1]).toEqual([true, true, true]);
  });
});

describe('login answers give no account oracle', () => {
  const login = (email: string, password: string) => new ApiClient(t.url).post('/api/login/', { email, password });

  it('unknown e-mail, wrong password, and wrong password on an unverified or blocked account answer alike', async () => {
    const known = await createUser(t.ctx);
    const unverified = await createUser(t.ctx, { verified: false });
    const blocked = await createUser(t.ctx, { blocked: true });
    const answers = await Promise.all([
      login('niko-ne-postoji@example.com', 'Pogresna123'),
      login(known.email, 'Pogresna123'),
      login(unverified.email, 'Pogresna123'),
      login(blocked.email, 'Pogresna123'),
    ]);
    const shapes = answers.map((a) => ({ status: a.status, body: a.body, type: a.headers.get('content-type') }));
    expect(shapes[0].status).toBe(401);
    for (const s of shapes) expect(s).toEqual(shapes[0]);
  });

  it('unknown e-mail and wrong password take the same time (medians of 15 interleaved tries within a factor of 2)', async () => {
    const known = await createUser(t.ctx);
    const times = { unknown: [] as number[], wrong: [] as number[] };
    const timed = async (email: string) => {
      const c = new ApiClient(t.url);
      await c.ensureCsrf();
      const start = performance.now();
      const res = await c.post('/api/login/', { email, password: 'Pogresna123' });
      const ms = performance.now() - start;
      expect(res.status).toBe(401);
      return ms;
    };
    await timed(known.email); // warm-up (the dummy hash is made on first use)
    await timed('warmup@example.com');
    for (let i = 0; i < 15; i++) {
      times.unknown.push(await timed(`nepoznat${i}@example.com`));
      times.wrong.push(await timed(known.email));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const ratio = median(times.unknown) / median(times.wrong);
    expect(ratio, `unknown ${median(times.unknown).toFixed(1)} ms vs wrong ${median(times.wrong).toFixed(1)} ms`).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
    // And the work really is argon2's: a login is not instant.
    expect(median(times.wrong)).toBeGreaterThan(5);
  });
});

describe('online guessing (RATE_LIMIT=1, TRUST_PROXY=1)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ RATE_LIMIT: '1', TRUST_PROXY: '1' });
  });
  afterAll(() => s?.close());

  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

  it('throttles an attacker within 10 failures per 15 min, even for the right password, but never the owner elsewhere', async () => {
    const u = await createUser(s.ctx);
    const attacker = new ApiClient(s.url);
    await attacker.get('/api/csrf/', from('203.0.113.7'));
    let failures = 0;
    let throttledAt = -1;
    for (let i = 0; i < 14; i++) {
      const res = await attacker.post('/api/login/', { email: u.email, password: `Pogadjam${i}` }, from('203.0.113.7'));
      if (res.status === 429) {
        throttledAt = i;
        break;
      }
      expect(res.status).toBe(401);
      failures += 1;
    }
    expect(failures).toBeLessThanOrEqual(10);
    expect(throttledAt).toBeGreaterThan(-1);
    // Guessing right now does not help: still 429, and no session.
    const right = await attacker.post('/api/login/', { email: u.email, password: u.password }, from('203.0.113.7'));
    expect(right.status).toBe(429);
    expect((await attacker.get('/api/user/status/', from('203.0.113.7'))).body.is_authenticated).toBe(false);
    // The same attacker varying the e-mail's case/spaces is the same bucket.
    expect((await attacker.post('/api/login/', { email: `  ${u.email.toUpperCase()} `, password: 'x' }, from('203.0.113.7'))).status).toBe(429);
    // The owner, from home, logs in at once.
    const owner = new ApiClient(s.url);
    const res = await owner.post('/api/login/', { email: u.email, password: u.password }, from('198.51.100.20'));
    expect(res.status).toBe(200);
  });
});
