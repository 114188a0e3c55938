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

describe('GET /api/user/status/', () => {
  it('says not authenticated to a visitor', async () => {
    const res = await new ApiClient(t.url).get('/api/user/status/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ is_authenticated: false, username: null });
  });
});

describe('GET /api/username/ and /api/current_user_data/', () => {
  it('answer 403 to a visitor', async () => {
    const c = new ApiClient(t.url);
    expect((await c.get('/api/username/')).status).toBe(403);
    expect((await c.get('/api/current_user_data/')).status).toBe(403);
  });

  it('give the logged-in user their own data', async () => {
    const u = await createUser(t.ctx, { first_name: 'Mila Milić', phone_number: '0651234567', city: 'Subotica' });
    const c = await loginAs(t.url, u);
    expect((await c.get('/api/username/')).body).toEqual({ username: 'Mila Milić' });
    const res = await c.get('/api/current_user_data/');
    expect(res.body).toEqual({
      id: u.id,
      first_name: 'Mila Milić',
      phone_number: '0651234567',
      city: 'Subotica',
      email: u.email,
      is_superuser: false,
      is_verified: true,
      has_password: true,
    });
  });
});

describe('PUT /api/update-profile/', () => {
  it('answers 403 to a visitor', async () => {
    const res = await new ApiClient(t.url).put('/api/update-profile/', { first_name: 'X' });
    expect(res.status).toBe(403);
  });

  it('needs the CSRF token', async () => {
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    const res = await c.put('/api/update-profile/', { first_name: 'Novo Ime' }, { csrf: 'pogresan-token' });
    expect(res.status).toBe(403);
  });

  it('updates name, phone and city and shows them afterwards', async () => {
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    const res = await c.put('/api/update-profile/', { first_name: ' Nikola Tesla ', phone_number: '+381 64 555 1234', city: 'Smiljan', email: u.email });
    expect(res.status).toBe(200);
    expect(res.body.detail).toBe('Podaci su uspešno ažurirani.');
    const data = (await c.get('/api/current_user_data/')).body;
    expect(data).toMatchObject({ first_name: 'Nikola Tesla', phone_number: '+381645551234', city: 'Smiljan', email: u.email });
    expect((await c.get('/api/user/status/')).body.username).toBe('Nikola Tesla');
  });

  it("requires the name: 'Ime je obavezno.'", async () => {
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    for (const first_name of [undefined, '', '   ', 7]) {
      const res = await c.put('/api/update-profile/', { first_name, phone_number: '0641234567' });
      expect(res.status).toBe(400);
      expect(res.body.first_name).toEqual(['Ime je obavezno.']);
    }
  });

  it("validates a phone with the registration rule: 'Broj telefona nije validan.'", async () => {
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    for (const phone_number of ['abc', '123', '+3816412345678901', 5]) {
      const res = await c.put('/api/update-profile/', { first_name: 'Ime', phone_number });
      expect(res.status).toBe(400);
      expect(res.body.phone_number).toEqual(['Broj telefona nije validan.']);
    }
  });

  it('allows clearing the phone (the profile form only warns about it)', async () => {
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    expect((await c.put('/api/update-profile/', { first_name: 'Ime', phone_number: '' })).status).toBe(200);
    expect((await c.get('/api/current_user_data/')).body.phone_number).toBe('');
  });

  it('rejects a too long city', async () => {
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    const res = await c.put('/api/update-profile/', { first_name: 'Ime', city: 'x'.repeat(101) });
    expect(res.status).toBe(400);
    expect(res.body.city).toEqual(['Grad može imati najviše 100 znakova.']);
  });

  it('never changes the e-mail: another address is rejected with 400 {email}', async () => {
    const u = await createUser(t.ctx);
    const c = await loginAs(t.url, u);
    const res = await c.put('/api/update-profile/', { first_name: 'Ime', email: 'drugi@example.com' });
    expect(res.status).toBe(400);
    expect(res.body.email).toEqual(['Email adresa se ne može promeniti.']);
    const row = await t.ctx.db.selectFrom('users').select(['email', 'first_name']).where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ email: u.email, first_name: u.first_name });
    // The same address in another case is the same address.
    expect((await c.put('/api/update-profile/', { first_name: 'Ime', email: u.email.toUpperCase() })).status).toBe(200);
  });
});
