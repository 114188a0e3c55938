import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { startFakeGoogle, type FakeGoogle, type FakeIdentity } from '../../support/fake-google';
import { createUser, loginAs } from '../../support/factories';
import { ApiClient } from '../../support/http';
import { signInWithGoogle, toIdentity } from '../../../server/features/accounts/google.service';

let g: FakeGoogle;
let t: TestServer;
beforeAll(async () => {
  g = await startFakeGoogle();
  t = await startTestServer({ ...g.env(), ADMIN_EMAILS: 'google.admin@gmail.com' });
});
afterAll(async () => {
  await t.close();
  await g.close();
});

let n = 0;
const identity = (over: Partial<FakeIdentity> = {}): FakeIdentity => {
  n += 1;
  return { sub: `sub-${n}-${Date.now()}`, email: `g${n}-${Date.now()}@gmail.com`, email_verified: true, name: `Gugl Korisnik ${n}`, ...over };
};
const userByEmail = (email: string) => t.ctx.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();

describe('GET /api/auth/google/config/', () => {
  it('tells the client that Google is on and which client id to use', async () => {
    const res = await new ApiClient(t.url).get('/api/auth/google/config/');
    expect(res.body).toEqual({ enabled: true, redirect_enabled: true, client_id: g.clientId });
  });
});

describe('POST /api/auth/google/', () => {
  const post = async (token: unknown, c = new ApiClient(t.url)) => ({ c, res: await c.post('/api/auth/google/', { id_token: token }) });

  it('needs the CSRF token', async () => {
    const c = new ApiClient(t.url);
    await c.ensureCsrf();
    const res = await c.post('/api/auth/google/', { id_token: await g.signIdToken(identity()) }, { csrf: false });
    expect(res.status).toBe(403);
  });

  it('creates a verified account without a password for a new Google user and logs in', async () => {
    const id = identity({ email: `Nova.Osoba${Date.now()}@Gmail.com` });
    const { c, res } = await post(await g.signIdToken(id));
    expect(res.status).toBe(200);
    expect(res.body.is_new_user).toBe(true);
    expect((await c.get('/api/user/status/')).body).toEqual({ is_authenticated: true, username: id.name });
    const row = (await userByEmail(id.email))!;
    expect(row.email).toBe(id.email.toLowerCase());
    expect(row.google_sub).toBe(id.sub);
    expect(row.verified_at).not.toBeNull();
    expect(row.password_hash).toBeNull();
    // Second sign-in: same account, not new.
    const again = await post(await g.signIdToken(id));
    expect(again.res.body.is_new_user).toBe(false);
    expect(await t.ctx.db.selectFrom('users').select('id').where('email', '=', id.email.toLowerCase()).execute()).toHaveLength(1);
  });

  it('links a verified password account with the same e-mail; its password keeps working', async () => {
    const u = await createUser(t.ctx, { first_name: 'Stari Korisnik' });
    const id = identity({ email: u.email });
    const { c, res } = await post(await g.signIdToken(id));
    expect(res.status).toBe(200);
    expect(res.body.is_new_user).toBe(false);
    expect((await c.get('/api/current_user_data/')).body).toMatchObject({ id: u.id, first_name: 'Stari Korisnik' });
    expect((await userByEmail(u.email))!.google_sub).toBe(id.sub);
    expect((await new ApiClient(t.url).post('/api/login/', { email: u.email, password: u.password })).status).toBe(200);
  });

  it('two Google identities signing in at once for one verified e-mail: one links, the other is refused (409), nothing overwritten', async () => {
    const u = await createUser(t.ctx, { first_name: 'Jedan Nalog' });
    const [a, b] = [toIdentity(identity({ email: u.email }))!, toIdentity(identity({ email: u.email }))!];
    const results = await Promise.allSettled([signInWithGoogle(t.ctx, a), signInWithGoogle(t.ctx, b)]);
    const won = results.findIndex((r) => r.status === 'fulfilled');
    const lost = results.find((r) => r.status === 'rejected');
    expect(won).toBeGreaterThanOrEqual(0);
    expect(lost && lost.status === 'rejected' && (lost.reason as { status: number; code: string })).toMatchObject({ status: 409, code: 'google_other_account' });
    expect((await userByEmail(u.email))!.google_sub).toBe([a, b][won]!.sub);
  });

  it("pre-hijack: an attacker's UNVERIFIED password account loses its password and becomes the Google user's", async () => {
    const victimEmail = `zrtva${Date.now()}@gmail.com`;
    // The attacker registers the victim's address first (cannot verify it).
    const attacker = new ApiClient(t.url);
    expect(
      (await attacker.post('/api/user/register/', { first_name: 'Napadač', email: victimEmail, phone_number: '0600000000', password: 'Napadac123' })).status,
    ).toBe(201);
    const id = identity({ email: victimEmail, name: 'Prava Žrtva' });
    const { c, res } = await post(await g.signIdToken(id));
    expect(res.status).toBe(200);
    expect(res.body.is_new_user).toBe(true);
    const row = (await userByEmail(victimEmail))!;
    expect(row.password_hash).toBeNull();
    expect(row.verified_at).not.toBeNull();
    expect(row.first_name).toBe('Prava Žrtva');
    expect(row.phone_number).toBe('');
    // The attacker's password no longer opens the account.
    const attempt = await new ApiClient(t.url).post('/api/login/', { email: victimEmail, password: 'Napadac123' });
    expect(attempt.status).toBe(401);
    expect((await c.get('/api/current_user_data/')).body.first_name).toBe('Prava Žrtva');
  });

  it("refuses a blocked account with 403 'Vaš nalog je blokiran.'", async () => {
    const u = await createUser(t.ctx, { blocked: true });
    const { c, res } = await post(await g.signIdToken(identity({ email: u.email })));
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('Vaš nalog je blokiran.');
    expect((await c.get('/api/user/status/')).body.is_authenticated).toBe(false);
    expect((await userByEmail(u.email))!.google_sub).toBeNull();
  });

  it('gives an admin redirect_url', async () => {
    const { res } = await post(await g.signIdToken(identity({ email: 'google.admin@gmail.com' })));
    expect(res.status).toBe(200);
    expect(res.body.redirect_url).toBe('/admin/dashboard');
  });

  const refused: Array<[string, () => Promise<unknown>]> = [
    ['a forged signature', () => g.signIdToken(identity(), { wrongKey: true })],
    ['another audience', () => g.signIdToken(identity(), { audience: 'someone-else.apps.googleusercontent.com' })],
    ['another issuer', () => g.signIdToken(identity(), { issuer: 'https://evil.example.com' })],
    ['an expired token', () => g.signIdToken(identity(), { expiresIn: -600 })],
    ['an unverified e-mail', () => g.signIdToken(identity({ email_verified: false }))],
    ['a token without e-mail', () => g.signIdToken(identity(), { claims: { email: undefined } })],
    ['garbage', async () => 'nije.jwt.token'],
    ['an alg=none token', async () => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'x', email: 'a@b.rs', email_verified: true })).toString('base64url')}.`],
  ];
  for (const [name, make] of refused) {
    it(`refuses ${name} with 401 and does not log in`, async () => {
      const token = await make();
      const { c, res } = await post(token);
      expect(res.status).toBe(401);
      expect(res.body.detail).toBeTypeOf('string');
      expect((await c.get('/api/user/status/')).body.is_authenticated).toBe(false);
    });
  }

  it('refuses a tampered payload (valid signature of other claims)', async () => {
    const token = await g.signIdToken(identity());
    const [h, , s] = token.split('.');
    const evil = Buffer.from(JSON.stringify({ sub: 'x', email: 'admin@aukcije.rs', email_verified: true, iss: g.issuer, aud: g.clientId, exp: 9999999999 })).toString('base64url');
    const { res } = await post(`${h}.${evil}.${s}`);
    expect(res.status).toBe(401);
  });

  it('answers 400 when id_token is missing or not a string', async () => {
    expect((await post(undefined)).res.status).toBe(400);
    expect((await post(42)).res.status).toBe(400);
  });
});

describe('Google redirect flow (passport-google-oauth20)', () => {
  /** Follows start → fake Google → callback like a browser would; returns the final Location. */
  async function signInByRedirect(c: ApiClient): Promise<string> {
    const start = await c.get('/api/auth/google/start');
    expect(start.status).toBe(302);
    const authUrl = new URL(start.headers.get('location')!);
    expect(authUrl.origin).toBe(g.url);
    expect(authUrl.searchParams.get('client_id')).toBe(g.clientId);
    expect(authUrl.searchParams.get('state')).toBeTruthy();
    const consent = await fetch(authUrl, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    expect(callback.pathname).toBe('/api/auth/google/callback');
    const done = await c.get(callback.pathname + callback.search);
    expect(done.status).toBe(302);
    return done.headers.get('location')!;
  }

  it('signs a new user in and lands on /profil, then on /aukcije next time', async () => {
    g.identity = identity();
    const c = new ApiClient(t.url);
    expect(await signInByRedirect(c)).toBe('/profil');
    expect((await c.get('/api/user/status/')).body).toEqual({ is_authenticated: true, username: g.identity.name });
    const c2 = new ApiClient(t.url);
    expect(await signInByRedirect(c2)).toBe('/aukcije');
    expect(g.tokenErrors).toEqual([]);
  });

  it('applies the pre-hijack rule too', async () => {
    const u = await createUser(t.ctx, { verified: false });
    g.identity = identity({ email: u.email });
    const c = new ApiClient(t.url);
    expect(await signInByRedirect(c)).toBe('/profil');
    expect((await userByEmail(u.email))!.password_hash).toBeNull();
    expect((await new ApiClient(t.url).post('/api/login/', { email: u.email, password: u.password })).status).toBe(401);
  });

  it('sends a blocked user to /login?google=blocked without a session', async () => {
    const u = await createUser(t.ctx, { blocked: true });
    g.identity = identity({ email: u.email });
    const c = new ApiClient(t.url);
    expect(await signInByRedirect(c)).toBe('/login?google=blocked');
    expect((await c.get('/api/user/status/')).body.is_authenticated).toBe(false);
  });

  it('refuses an unverified Google e-mail', async () => {
    g.identity = identity({ email_verified: false });
    const c = new ApiClient(t.url);
    expect(await signInByRedirect(c)).toBe('/login?google=failed');
    expect((await c.get('/api/user/status/')).body.is_authenticated).toBe(false);
  });

  it('refuses a callback whose state does not belong to this browser (login CSRF)', async () => {
    g.identity = identity();
    const victim = new ApiClient(t.url);
    const attacker = new ApiClient(t.url);
    const start = await attacker.get('/api/auth/google/start');
    const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    const res = await victim.get(callback.pathname + callback.search);
    expect(res.headers.get('location')).toBe('/login?google=failed');
    expect((await victim.get('/api/user/status/')).body.is_authenticated).toBe(false);
  });

  it('treats a denied consent as a failure', async () => {
    const c = new ApiClient(t.url);
    await c.get('/api/auth/google/start');
    const res = await c.get('/api/auth/google/callback?error=access_denied');
    expect(res.headers.get('location')).toBe('/login?google=failed');
  });
});

describe('without GOOGLE_CLIENT_ID', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer();
  });
  afterAll(async () => {
    await plain.close();
  });

  it('answers 503 JSON with a Serbian message on every Google route', async () => {
    const c = new ApiClient(plain.url);
    for (const res of [
      await c.post('/api/auth/google/', { id_token: 'x' }),
      await c.get('/api/auth/google/start'),
      await c.get('/api/auth/google/callback?code=x&state=y'),
    ]) {
      expect(res.status).toBe(503);
      expect(res.body.detail).toBe('Prijava preko Google naloga nije podešena na ovom serveru.');
    }
    expect((await c.get('/api/auth/google/config/')).body).toEqual({ enabled: false, redirect_enabled: false, client_id: null });
  });

  it('does not disturb the other app in the same process (own passport instance)', async () => {
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    expect((await c.get('/api/current_user_data/')).body.id).toBe(u.id);
  });
});
