import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser, loginAs, userRowsWritten } from '../../support/factories';
import { ApiClient } from '../../support/http';
import { mailsTo, RESET_LINK, sleep, waitForMail } from './helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const login = (email: string, password: string) => new ApiClient(t.url).post('/api/login/', { email, password });

describe('POST /api/change-password/', () => {
  it('answers 403 to a visitor', async () => {
    const res = await new ApiClient(t.url).post('/api/change-password/', { old_password: 'a', new_password: 'Nova12345' });
    expect(res.status).toBe(403);
  });

  it('changes the password, ends the other sessions and keeps this one on a new id', async () => {
    const u = await createUser(t.ctx);
    const here = await loginAs(t.url, u);
    const elsewhere = await loginAs(t.url, u);
    const sidBefore = here.cookies.get('sessionid');
    const res = await here.post('/api/change-password/', { old_password: u.password, new_password: 'NovaLozinka9' });
    expect(res.status).toBe(200);
    expect(res.body.detail).toBe('Lozinka je uspešno promenjena.');
    expect(here.cookies.get('sessionid')).not.toBe(sidBefore);
    expect((await here.get('/api/user/status/')).body.is_authenticated).toBe(true);
    // The renewed CSRF token works for the next change.
    expect((await here.put('/api/update-profile/', { first_name: 'Još Uvek Tu' })).status).toBe(200);
    expect((await elsewhere.get('/api/user/status/')).body.is_authenticated).toBe(false);
    expect((await login(u.email, u.password)).status).toBe(401);
    expect((await login(u.email, 'NovaLozinka9')).status).toBe(200);
  });

  it('checks the old password: 400 {old_password}', async () => {
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    const res = await c.post('/api/change-password/', { old_password: 'Pogresna123', new_password: 'NovaLozinka9' });
    expect(res.status).toBe(400);
    expect(res.body.old_password).toEqual(['Trenutna lozinka nije tačna.']);
    expect((await login(u.email, u.password)).status).toBe(200);
  });

  it('requires the old password', async () => {
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    const res = await c.post('/api/change-password/', { new_password: 'NovaLozinka9' });
    expect(res.status).toBe(400);
    expect(res.body.old_password).toEqual(['Trenutna lozinka je obavezna.']);
  });

  it('applies the registration policy to the new password', async () => {
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    const weak = await c.post('/api/change-password/', { old_password: u.password, new_password: 'kratka1' });
    expect(weak.status).toBe(400);
    expect(weak.body.new_password).toEqual(['Lozinka mora imati minimum 8 znakova i barem jedan broj.']);
    const none = await c.post('/api/change-password/', { old_password: u.password, new_password: '' });
    expect(none.body.new_password).toEqual(['Lozinka je obavezna.']);
    expect((await login(u.email, u.password)).status).toBe(200);
  });

  it('tells a Google-only account (no password) to use the reset', async () => {
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    // As if the account had been created through Google: no password.
    await t.ctx.db.updateTable('users').set({ password_hash: null }).where('id', '=', u.id).execute();
    await userRowsWritten(t.ctx);
    const res = await c.post('/api/change-password/', { old_password: 'bilo-sta-1', new_password: 'NovaLozinka9' });
    expect(res.status).toBe(400);
    expect(res.body.old_password).toEqual([expect.stringMatching(/Zaboravljena lozinka/)]);
    expect((await c.get('/api/current_user_data/')).body.has_password).toBe(false);
  });
});

describe('POST /api/password-reset/ and /confirm/', () => {
  it('answers the same for known and unknown e-mails, and mails only the known one', async () => {
    const u = await createUser(t.ctx);
    const known = await new ApiClient(t.url).post('/api/password-reset/', { email: u.email.toUpperCase() });
    const unknown = await new ApiClient(t.url).post('/api/password-reset/', { email: 'niko@example.com' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    const [link] = await waitForMail(t, u.email, RESET_LINK);
    expect(link.startsWith(`${t.url}/zaboravljena-lozinka/`)).toBe(true);
    await sleep(100);
    expect(mailsTo(t, 'niko@example.com')).toBe(0);
  });

  it('validates the e-mail format', async () => {
    const res = await new ApiClient(t.url).post('/api/password-reset/', { email: 5 });
    expect(res.status).toBe(400);
    expect(res.body.email).toEqual(['Email je obavezan.']);
  });

  it('sets the new password once, ends every session and refuses a second use', async () => {
    const u = await createUser(t.ctx);
    const session = await loginAs(t.url, u);
    await new ApiClient(t.url).post('/api/password-reset/', { email: u.email });
    const [, token] = await waitForMail(t, u.email, RESET_LINK);
    const page = new ApiClient(t.url);
    const weak = await page.post('/api/password-reset/confirm/', { token, password: 'slaba' });
    expect(weak.status).toBe(400);
    expect(weak.body.password).toEqual(['Lozinka mora imati minimum 8 znakova i barem jedan broj.']);
    const ok = await page.post('/api/password-reset/confirm/', { token, password: 'Resetovana77' });
    expect(ok.status).toBe(200);
    expect((await session.get('/api/user/status/')).body.is_authenticated).toBe(false);
    expect((await login(u.email, u.password)).status).toBe(401);
    expect((await login(u.email, 'Resetovana77')).status).toBe(200);
    const again = await page.post('/api/password-reset/confirm/', { token, password: 'Jos1Jednom' });
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe('Link za promenu lozinke nije ispravan ili je istekao. Zatražite novi.');
  });

  it('refuses an expired link (1 hour)', async () => {
    const u = await createUser(t.ctx);
    await new ApiClient(t.url).post('/api/password-reset/', { email: u.email });
    const [, token] = await waitForMail(t, u.email, RESET_LINK);
    const tok = await t.ctx.db.selectFrom('email_tokens').selectAll().where('user_id', '=', u.id).where('purpose', '=', 'reset').executeTakeFirstOrThrow();
    expect((Date.parse(tok.expires_at) - Date.parse(tok.created_at)) / 60_000).toBeCloseTo(60, 3);
    await t.ctx.db.updateTable('email_tokens').set({ expires_at: new Date(Date.now() - 1).toISOString() }).where('id', '=', tok.id).execute();
    const res = await new ApiClient(t.url).post('/api/password-reset/confirm/', { token, password: 'Resetovana77' });
    expect(res.status).toBe(400);
    expect((await login(u.email, u.password)).status).toBe(200);
  });

  it('refuses unknown or malformed tokens with 400 {detail}, never 500', async () => {
    for (const token of ['nepostojeci-token-123456789', '', 5, '../../etc']) {
      const res = await new ApiClient(t.url).post('/api/password-reset/confirm/', { token, password: 'Resetovana77' });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBeTypeOf('string');
    }
  });

  it('verifies an unverified account (the link proves the mailbox)', async () => {
    const u = await createUser(t.ctx, { verified: false });
    await new ApiClient(t.url).post('/api/password-reset/', { email: u.email });
    const [, token] = await waitForMail(t, u.email, RESET_LINK);
    expect((await new ApiClient(t.url).post('/api/password-reset/confirm/', { token, password: 'Resetovana77' })).status).toBe(200);
    expect((await login(u.email, 'Resetovana77')).status).toBe(200);
  });

  it('sends nothing to a blocked account', async () => {
    const u = await createUser(t.ctx, { blocked: true });
    expect((await new ApiClient(t.url).post('/api/password-reset/', { email: u.email })).status).toBe(200);
    await sleep(150);
    expect(mailsTo(t, u.email)).toBe(0);
  });
});
