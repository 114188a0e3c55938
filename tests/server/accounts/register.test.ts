import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser } from '../../support/factories';
import { ApiClient } from '../../support/http';
import { mailsTo, sleep, VERIFY_LINK, waitForMail } from './helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ ADMIN_EMAILS: 'sef@aukcije.test' });
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const valid = () => {
  n += 1;
  return { first_name: 'Petar Perić', email: `petar${n}@example.com`, phone_number: '+381641234567', password: 'Lozinka123' };
};
const register = (body: unknown) => new ApiClient(t.url).post('/api/user/register/', body);

describe('POST /api/user/register/', () => {
  it('needs the CSRF token', async () => {
    const c = new ApiClient(t.url);
    await c.ensureCsrf();
    const res = await c.post('/api/user/register/', valid(), { csrf: false });
    expect(res.status).toBe(403);
  });

  it('creates an unverified account (201), stores an argon2id hash and mails an absolute verification link', async () => {
    const body = valid();
    const res = await register({ ...body, email: body.email.toUpperCase() });
    expect(res.status).toBe(201);
    const row = await t.ctx.db.selectFrom('users').selectAll().where('email', '=', body.email).executeTakeFirstOrThrow();
    expect(row.verified_at).toBeNull();
    // argon2id with OWASP's parameters, readable from the stored PHC string.
    const [, algo, version, params] = row.password_hash!.split('$');
    expect(algo).toBe('argon2id');
    expect(version).toBe('v=19');
    expect(Object.fromEntries(params!.split(',').map((kv) => kv.split('=')))).toEqual({ m: '19456', t: '2', p: '1' });
    expect(row.password_hash).not.toContain(body.password);
    const [link] = await waitForMail(t, body.email, VERIFY_LINK);
    expect(link.startsWith(`${t.url}/api/verify/`)).toBe(true);
    // Not verified yet: login refused with the spec's message.
    const login = await new ApiClient(t.url).post('/api/login/', { email: body.email, password: body.password });
    expect(login.status).toBe(403);
    expect(login.body.detail).toBe('Vaš nalog nije verifikovan. Proverite vaš email.');
  });

  it('answers 400 {email: [...]} for a duplicate e-mail in another case', async () => {
    const body = valid();
    expect((await register(body)).status).toBe(201);
    const res = await register({ ...valid(), email: `  ${body.email.toUpperCase()} ` });
    expect(res.status).toBe(400);
    expect(res.body.email).toEqual(['Korisnik sa ovom email adresom već postoji.']);
  });

  it('makes ADMIN_EMAILS admins at registration', async () => {
    const res = await register({ ...valid(), email: 'Sef@Aukcije.test' });
    expect(res.status).toBe(201);
    const row = await t.ctx.db.selectFrom('users').select('is_admin').where('email', '=', 'sef@aukcije.test').executeTakeFirstOrThrow();
    expect(row.is_admin).toBe(1);
  });

  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['first_name missing', { first_name: undefined }, 'first_name', 'Ime je obavezno.'],
    ['first_name blank', { first_name: '   ' }, 'first_name', 'Ime je obavezno.'],
    ['email missing', { email: undefined }, 'email', 'Email je obavezan.'],
    ['email blank', { email: '' }, 'email', 'Email je obavezan.'],
    ['email malformed', { email: 'petar@nigde' }, 'email', 'Email nije validan.'],
    ['email of a wrong type', { email: 5 }, 'email', 'Email je obavezan.'],
    ['phone missing', { phone_number: undefined }, 'phone_number', 'Broj telefona je obavezan'],
    ['phone with letters', { phone_number: '06x1234567' }, 'phone_number', 'Broj telefona nije validan.'],
    ['phone too long', { phone_number: '+3816412345678901' }, 'phone_number', 'Broj telefona nije validan.'],
    ['password missing', { password: undefined }, 'password', 'Lozinka je obavezna.'],
    ['password blank', { password: '' }, 'password', 'Lozinka je obavezna.'],
    ['password of a wrong type', { password: 12345678 }, 'password', 'Lozinka je obavezna.'],
    ['first_name too long', { first_name: 'x'.repeat(101) }, 'first_name', 'Ime može imati najviše 100 znakova.'],
    ['password too short', { password: 'Abc1234' }, 'password', 'Lozinka mora imati minimum 8 znakova i barem jedan broj.'],
    ['password without a digit', { password: 'Lozinkaaa' }, 'password', 'Lozinka mora imati minimum 8 znakova i barem jedan broj.'],
    ['password with a forbidden character', { password: 'Lozinka 123' }, 'password', 'Lozinka mora imati minimum 8 znakova i barem jedan broj.'],
  ];
  for (const [name, patch, field, message] of cases) {
    it(`rejects ${name} with 400 {${field}: ['${message}']}`, async () => {
      const res = await register({ ...valid(), ...patch });
      expect(res.status).toBe(400);
      expect(res.body[field]).toEqual([message]);
      expect(res.body.detail).toBe(message);
    });
  }

  it('accepts a phone with spaces and dashes and stores the digits', async () => {
    const body = { ...valid(), phone_number: '064 123-4567' };
    expect((await register(body)).status).toBe(201);
    const row = await t.ctx.db.selectFrom('users').select('phone_number').where('email', '=', body.email).executeTakeFirstOrThrow();
    expect(row.phone_number).toBe('0641234567');
  });

  it('answers a JSON array or a string body with 400, not 500', async () => {
    const arr = await register([1, 2]);
    expect(arr.status).toBe(400);
    expect(arr.body.detail).toBe('Podaci nisu ispravni.');
    const c = new ApiClient(t.url);
    const res = await c.post('/api/user/register/', undefined, { raw: '"x"', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
  });
});

describe('GET /api/verify/{code}/', () => {
  async function registered() {
    const body = valid();
    expect((await register(body)).status).toBe(201);
    const [, code] = await waitForMail(t, body.email, VERIFY_LINK);
    return { body, code: code! };
  }

  it('verifies once and redirects to /login?verified=1; the user can then log in', async () => {
    const { body, code } = await registered();
    const res = await new ApiClient(t.url).get(`/api/verify/${code}/`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?verified=1');
    const login = await new ApiClient(t.url).post('/api/login/', { email: body.email, password: body.password });
    expect(login.status).toBe(200);
    // Second use: nothing to verify, the page says it is already verified.
    const again = await new ApiClient(t.url).get(`/api/verify/${code}/`);
    expect(again.headers.get('location')).toBe('/login?verified=already');
  });

  it('redirects to /login?verified=0 for an unknown code', async () => {
    const res = await new ApiClient(t.url).get('/api/verify/nepostojeci-kod-1234567890abc/');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?verified=0');
    expect((await new ApiClient(t.url).get('/api/verify/%3Cscript%3E/')).headers.get('location')).toBe('/login?verified=0');
  });

  it('refuses a code older than 48 hours', async () => {
    const { body, code } = await registered();
    const user = await t.ctx.db.selectFrom('users').select('id').where('email', '=', body.email).executeTakeFirstOrThrow();
    await t.ctx.db
      .updateTable('email_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    const res = await new ApiClient(t.url).get(`/api/verify/${code}/`);
    expect(res.headers.get('location')).toBe('/login?verified=0');
    const row = await t.ctx.db.selectFrom('users').select('verified_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.verified_at).toBeNull();
  });

  it('codes are issued for 48 hours', async () => {
    const { body } = await registered();
    const user = await t.ctx.db.selectFrom('users').select('id').where('email', '=', body.email).executeTakeFirstOrThrow();
    const tok = await t.ctx.db.selectFrom('email_tokens').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const hours = (Date.parse(tok.expires_at) - Date.parse(tok.created_at)) / 3600_000;
    expect(hours).toBeCloseTo(48, 3);
  });
});

describe('POST /api/verify/resend/', () => {
  it('mails a new link that works while the old one stops working', async () => {
    const body = valid();
    await register(body);
    const [, oldCode] = await waitForMail(t, body.email, VERIFY_LINK);
    const res = await new ApiClient(t.url).post('/api/verify/resend/', { email: body.email.toUpperCase() });
    expect(res.status).toBe(200);
    await expect.poll(() => mailsTo(t, body.email)).toBe(2);
    const [, newCode] = await waitForMail(t, body.email, VERIFY_LINK);
    expect(newCode).not.toBe(oldCode);
    expect((await new ApiClient(t.url).get(`/api/verify/${oldCode}/`)).headers.get('location')).toBe('/login?verified=0');
    expect((await new ApiClient(t.url).get(`/api/verify/${newCode}/`)).headers.get('location')).toBe('/login?verified=1');
  });

  it('answers the same for unknown and already verified e-mails, and sends nothing', async () => {
    const verified = await createUser(t.ctx);
    const a = await new ApiClient(t.url).post('/api/verify/resend/', { email: 'niko-nije-ovde@example.com' });
    const b = await new ApiClient(t.url).post('/api/verify/resend/', { email: verified.email });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body).toEqual(b.body);
    await sleep(150);
    expect(mailsTo(t, verified.email)).toBe(0);
    expect(mailsTo(t, 'niko-nije-ovde@example.com')).toBe(0);
  });

  it('validates the e-mail', async () => {
    const res = await new ApiClient(t.url).post('/api/verify/resend/', { email: 'nije-email' });
    expect(res.status).toBe(400);
    expect(res.body.email).toEqual(['Email nije validan.']);
  });
});
