import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser, loginAs, userRowsWritten } from '../../support/factories';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';

let t: TestServer;
const DAY = 60; // AUCTION_DAY_SECONDS for this file
beforeAll(async () => {
  t = await startTestServer({ AUCTION_DAY_SECONDS: String(DAY) });
});
afterAll(async () => {
  await t.close();
});

const valid = {
  title: 'Šešir od filca',
  description: 'Ručno rađen šešir, nošen dva puta.',
  current_price: '1500.9',
  auction_duration: '3',
  city: 'Novi Sad',
  phone_number: '064 123 4567',
  category: 'clothing',
};

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

async function seller() {
  const user = await createUser(t.ctx);
  return { user, client: await loginAs(t.url, user) };
}

describe('POST /api/auctionItems/', () => {
  it('refuses a visitor with 403', async () => {
    const res = await new ApiClient(t.url).post('/api/auctionItems/', form(valid));
    expect(res.status).toBe(403);
  });

  it('refuses a blocked user with 403', async () => {
    const user = await createUser(t.ctx);
    const c = await loginAs(t.url, user);
    await t.ctx.db.updateTable('users').set({ blocked_at: new Date().toISOString() }).where('id', '=', user.id).execute();
    await userRowsWritten(t.ctx);
    const res = await c.post('/api/auctionItems/', form(valid));
    expect(res.status).toBe(403);
  });

  it('creates an auction from multipart fields → 201 {id}, price floored, end = now + duration days', async () => {
    const { user, client } = await seller();
    const before = Date.now();
    const res = await client.post('/api/auctionItems/', form(valid));
    expect(res.status).toBe(201);
    expect(typeof res.body.id).toBe('number');
    const detail = (await new ApiClient(t.url).get(`/api/auction/${res.body.id}/`)).body;
    expect(detail).toMatchObject({
      id: res.body.id,
      title: 'Šešir od filca',
      description: 'Ručno rađen šešir, nošen dva puta.',
      current_price: 1500,
      starting_price: 1500,
      seller: user.id,
      seller_name: user.first_name,
      city: 'Novi Sad',
      phone_number: '0641234567',
      category: 'clothing',
      bid_count: 0,
      status: 'active',
      winner: null,
      images: [],
    });
    const end = Date.parse(detail.end_date);
    expect(detail.end_date).toMatch(/Z$/);
    expect(end).toBeGreaterThanOrEqual(before + 3 * DAY * 1000 - 50);
    expect(end).toBeLessThanOrEqual(Date.now() + 3 * DAY * 1000 + 50);
  });

  it('accepts JSON too, with a numeric price', async () => {
    const { client } = await seller();
    const res = await client.post('/api/auctionItems/', { ...valid, current_price: 100, auction_duration: 7 });
    expect(res.status).toBe(201);
  });

  const cases: [string, Record<string, string | undefined>, string, string][] = [
    ['missing title', { title: undefined }, 'title', 'Naslov je obavezan.'],
    ['blank title', { title: '   ' }, 'title', 'Naslov je obavezan.'],
    ['title of 51 characters', { title: 'a'.repeat(51) }, 'title', 'Naslov može imati najviše 50 karaktera.'],
    ['missing description', { description: '' }, 'description', 'Opis je obavezan.'],
    ['price 99', { current_price: '99' }, 'current_price', 'Minimalna cena je 100 dinara.'],
    ['price 99.99 (floored to 99)', { current_price: '99.99' }, 'current_price', 'Minimalna cena je 100 dinara.'],
    ['price not a number', { current_price: 'sto' }, 'current_price', 'Minimalna cena je 100 dinara.'],
    ['missing price', { current_price: undefined }, 'current_price', 'Minimalna cena je 100 dinara.'],
    ['duration 10', { auction_duration: '10' }, 'auction_duration', 'Trajanje aukcije mora biti 1, 3, 4 ili 7 dana.'],
    ['duration 2', { auction_duration: '2' }, 'auction_duration', 'Trajanje aukcije mora biti 1, 3, 4 ili 7 dana.'],
    ['missing city', { city: '' }, 'city', 'Grad je obavezan.'],
    ['phone without leading 0', { phone_number: '641234567' }, 'phone_number', 'Broj telefona nije validan. Mora počinjati sa 0 i imati najmanje 9 cifara.'],
    ['phone too short', { phone_number: '06412345' }, 'phone_number', 'Broj telefona nije validan. Mora počinjati sa 0 i imati najmanje 9 cifara.'],
    ['phone with letters', { phone_number: '06412345a7' }, 'phone_number', 'Broj telefona nije validan. Mora počinjati sa 0 i imati najmanje 9 cifara.'],
    ['missing category', { category: '' }, 'category', 'Kategorija je obavezna.'],
    ['unknown category', { category: 'weapons' }, 'category', 'Kategorija je obavezna.'],
    ['the filter-only category', { category: 'all-auctions' }, 'category', 'Kategorija je obavezna.'],
  ];
  it.each(cases)('refuses %s with its Serbian message', async (_name, patch, field, message) => {
    const { client } = await seller();
    const fields = { ...valid, ...patch };
    for (const k of Object.keys(fields)) if (fields[k as keyof typeof fields] === undefined) delete fields[k as keyof typeof fields];
    const res = await client.post('/api/auctionItems/', form(fields as Record<string, string>));
    expect(res.status).toBe(400);
    expect(res.body[field]).toEqual([message]);
    expect(res.body.detail).toBe(message);
    expect(res.body.message).toBe(message);
  });

  it('accepts exactly 50 characters, a price of exactly 100 and a 9-digit phone', async () => {
    const { client } = await seller();
    const res = await client.post('/api/auctionItems/', form({ ...valid, title: 'š'.repeat(50), current_price: '100', phone_number: '012345678' }));
    expect(res.status).toBe(201);
  });

  it('answers 400 JSON (no 500) to a malformed form: a file part, an oversized field', async () => {
    const { client } = await seller();
    const withFile = form(valid);
    withFile.append('image', new Blob([new Uint8Array([1, 2, 3])]), 'a.png');
    const res = await client.post('/api/auctionItems/', withFile);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('Podaci obrasca nisu ispravni.');
    const huge = await client.post('/api/auctionItems/', form({ ...valid, description: 'x'.repeat(30_000) }));
    expect(huge.status).toBe(400);
  });

  it('reports every invalid field at once', async () => {
    const { client } = await seller();
    const res = await client.post('/api/auctionItems/', form({}));
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(expect.arrayContaining(['title', 'description', 'current_price', 'city', 'phone_number', 'category']));
  });
});

describe('GET /api/auction/{id}/', () => {
  it('404s with JSON for an unknown or malformed id', async () => {
    const c = new ApiClient(t.url);
    expect((await c.get('/api/auction/999999/')).status).toBe(404);
    const bad = await c.get('/api/auction/abc/');
    expect(bad.status).toBe(404);
    expect(bad.body.detail).toBeTruthy();
  });

  it('marks an auction whose end has passed as ended', async () => {
    const { user } = await seller();
    const a = await createAuction(t.ctx, user.id, { endsInMs: -1000 });
    expect((await new ApiClient(t.url).get(`/api/auction/${a.id}/`)).body.status).toBe('ended');
  });
});

describe('DELETE /api/auctionItems/delete/{id}/', () => {
  it('refuses a visitor with 403', async () => {
    const { user } = await seller();
    const a = await createAuction(t.ctx, user.id);
    expect((await new ApiClient(t.url).delete(`/api/auctionItems/delete/${a.id}/`)).status).toBe(403);
  });

  it('lets the seller delete an auction without bids → 204, then it is gone', async () => {
    const { user, client } = await seller();
    const a = await createAuction(t.ctx, user.id);
    expect((await client.delete(`/api/auctionItems/delete/${a.id}/`)).status).toBe(204);
    expect((await client.get(`/api/auction/${a.id}/`)).status).toBe(404);
  });

  it('refuses the seller once there are bids (400 with detail)', async () => {
    const { user, client } = await seller();
    const a = await createAuction(t.ctx, user.id, { bid_count: 1, current_price: 1010 });
    const res = await client.delete(`/api/auctionItems/delete/${a.id}/`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('Aukcija ima ponude i ne može se obrisati.');
    expect((await client.get(`/api/auction/${a.id}/`)).status).toBe(200);
  });

  it('refuses another user with 403 and detail', async () => {
    const { user } = await seller();
    const other = await seller();
    const a = await createAuction(t.ctx, user.id);
    const res = await other.client.delete(`/api/auctionItems/delete/${a.id}/`);
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('Možete obrisati samo svoju aukciju.');
  });

  it('lets an admin delete any auction, bids or not', async () => {
    const { user } = await seller();
    const bidder = await createUser(t.ctx);
    const a = await createAuction(t.ctx, user.id, { bid_count: 1, current_price: 1010 });
    await t.ctx.db.insertInto('bids').values({ auction_id: a.id, bidder_id: bidder.id, amount: 1010, created_at: new Date().toISOString() }).execute();
    const admin = await loginAs(t.url, await createUser(t.ctx, { admin: true }));
    expect((await admin.delete(`/api/auctionItems/delete/${a.id}/`)).status).toBe(204);
    expect((await admin.get(`/api/auction/${a.id}/`)).status).toBe(404);
  });

  it('404s for an unknown auction', async () => {
    const { client } = await seller();
    const res = await client.delete('/api/auctionItems/delete/987654/');
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Aukcija ne postoji.');
  });
});

describe('compatibility calls', () => {
  it('GET /api/user/username/{auctionId}/ gives the seller {first_name, id}', async () => {
    const user = await createUser(t.ctx, { first_name: 'Đorđe Đurić' });
    const a = await createAuction(t.ctx, user.id);
    const res = await new ApiClient(t.url).get(`/api/user/username/${a.id}/`);
    expect(res.body).toEqual({ first_name: 'Đorđe Đurić', id: user.id });
    expect((await new ApiClient(t.url).get('/api/user/username/999999/')).status).toBe(404);
  });

  it('GET /api/auctions/{id}/offer_count/ gives {bid_count}', async () => {
    const { user } = await seller();
    const a = await createAuction(t.ctx, user.id, { bid_count: 3, current_price: 1030 });
    expect((await new ApiClient(t.url).get(`/api/auctions/${a.id}/offer_count/`)).body).toEqual({ bid_count: 3 });
  });

  it("GET /api/auctionItems/ lists the caller's own auctions (403 for visitors)", async () => {
    const { user, client } = await seller();
    const other = await createUser(t.ctx);
    const mine = await createAuction(t.ctx, user.id);
    await createAuction(t.ctx, other.id);
    const res = await client.get('/api/auctionItems/');
    expect(res.body.map((c: { id: number }) => c.id)).toEqual([mine.id]);
    expect((await new ApiClient(t.url).get('/api/auctionItems/')).status).toBe(403);
  });
});
