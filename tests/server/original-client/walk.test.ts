import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser, loginAs } from '../../support/factories';
import { imagesForm, pngBuffer } from '../../support/images';
import { OriginalClient } from '../../support/original-client';
import { VERIFY_LINK, waitForMail } from '../accounts/helpers';

// The original product's web client, unchanged, against our server (issue 20): it never asks GET /api/csrf/ and
// sends X-CSRFToken only from the csrftoken cookie it holds. Everything below is what it does, screen by screen.
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

type Bid = { bidder: number; amount: number; created_at: string };

describe('the original web client, from a fresh browser', () => {
  it('reads an auction with bids as a visitor, registers, verifies, logs in, bids, comments, creates, logs out and in', async () => {
    const seller = await createUser(t.ctx, { first_name: 'Sava Savić' });
    const ana = await createUser(t.ctx, { first_name: 'Ana Anić' });
    const auction = await createAuction(t.ctx, seller.id, { starting_price: 1000 });
    const anaApi = await loginAs(t.url, ana);
    expect((await anaApi.post('/api/bids/', { auction_item_id: auction.id, amount: 1010 })).status).toBe(201);
    expect((await anaApi.post('/api/bids/', { auction_item_id: auction.id, amount: 1100 })).status).toBe(201);

    const b = new OriginalClient(t.url);
    // The visitor opens the auction: status first, then the detail, the history, and the names by position.
    expect((await b.get('/api/user/status/')).body).toMatchObject({ is_authenticated: false });
    expect(b.cookie('csrftoken')).toBeTruthy();
    expect(b.cookie('sessionid')).toBeUndefined();
    expect((await b.get(`/api/auction/${auction.id}/`)).status).toBe(200);
    const history = await b.get<Bid[]>(`/api/bids/${auction.id}/`);
    expect(history.body.map((x) => x.amount)).toEqual([1010, 1100]);
    const names = await b.post<unknown[]>('/api/users/', { ids: history.body.map((x) => x.bidder) });
    expect(names.status).toBe(200);
    // What that client renders beside each bid: a string per bid, never an object (React error #31).
    expect(names.body).toEqual(['Ana Anić', 'Ana Anić']);

    // Registration and the verification link from the mail.
    const email = 'novi.kupac@example.com';
    const password = 'Lozinka123';
    const reg = await b.post('/api/user/register/', { first_name: 'Novi Kupac', email, phone_number: '+381641112233', password });
    expect(reg.status).toBe(201);
    const [, code] = await waitForMail(t, email, VERIFY_LINK);
    const verify = await b.get(`/api/verify/${code}/`);
    expect(verify.status).toBe(302);
    expect(verify.location).toContain('verified=1');

    // Login, then everything a buyer and a seller do.
    const login = await b.post('/api/login/', { email, password });
    expect(login.status).toBe(200);
    expect(b.cookie('sessionid')).toBeTruthy();
    expect((await b.get('/api/user/status/')).body).toMatchObject({ is_authenticated: true });
    const bid = await b.post('/api/bids/', { auction_item_id: auction.id, amount: 1200 });
    expect(bid.status).toBe(201);
    const comment = await b.post('/api/comments/create/', { auction_item_id: auction.id, content: 'Da li je ispravan?' });
    expect(comment.status).toBe(201);
    const form = new FormData();
    for (const [k, v] of Object.entries({ title: 'Bicikl', description: 'Gradski bicikl, malo vožen', current_price: '5000', auction_duration: '4', city: 'Novi Sad', phone_number: '0641112233', category: 'sports' })) form.append(k, v);
    const created = await b.post<{ id: number }>('/api/auctionItems/', form);
    expect(created.status).toBe(201);
    const images = await b.post(`/api/auction-items/${created.body.id}/images/`, imagesForm([{ name: 'bicikl.png', data: await pngBuffer(), type: 'image/png' }]));
    expect(images.status).toBe(201);
    const mine = await b.get<{ images: unknown[] }>(`/api/auction/${created.body.id}/`);
    expect(mine.body.images).toHaveLength(1);
    expect((await b.get<{ amount: number }[]>(`/api/bids/${auction.id}/`)).body.map((x) => x.amount)).toEqual([1010, 1100, 1200]);

    // Logout leaves a visitor token behind, so the same browser can log in again at once.
    expect((await b.post('/api/logout/')).status).toBe(200);
    expect(b.cookie('sessionid')).toBeUndefined();
    expect(b.cookie('csrftoken')).toBeTruthy();
    expect((await b.get('/api/user/status/')).body).toMatchObject({ is_authenticated: false });
    const again = await b.post('/api/login/', { email, password });
    expect(again.status).toBe(200);
    expect((await b.get('/api/user/status/')).body).toMatchObject({ is_authenticated: true });

    expect(b.log.filter((l) => l.includes('/api/csrf/'))).toEqual([]);
  });

  it('a browser with no cookie cannot write; its first read under /api/ gives it the token to log in', async () => {
    const user = await createUser(t.ctx);
    const b = new OriginalClient(t.url);
    // Without any cookie there is nothing to send: the write is refused, nothing changes.
    const blind = await b.post('/api/login/', { email: user.email, password: user.password });
    expect(blind.status).toBe(403);
    expect(blind.body).toMatchObject({ code: 'csrf' });
    // The page asks /api/user/status/ first; from then on it holds a token.
    await b.get('/api/user/status/');
    expect((await b.post('/api/login/', { email: user.email, password: user.password })).status).toBe(200);
  });
});
