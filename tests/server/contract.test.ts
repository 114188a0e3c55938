/**
 * The REST contract (shared/api.ts) names exactly the routes the server registers, and the check that the
 * tests' HTTP client (tests/support/http.ts) runs on every answer of the suite catches a drifting field.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { apiRows } from '@shared/api';
import { startTestServer, type TestServer } from '../support/app';
import { contractViolation, endpointOf, type BodyOf, type SeenResponse } from '../support/contract';
import { declaredRoutes } from '../support/security-routes';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

describe('shared/api.ts', () => {
  it('has a row for every route the server registers under /api/, and none for a route it does not have', () => {
    const served = declaredRoutes(t.server.app)
      .filter((r) => r.path.startsWith('/api/'))
      .map((r) => `${r.method} ${r.path}`);
    const listed = apiRows().map((r) => r.route as string);
    expect(served.length).toBeGreaterThan(40);
    expect(served.filter((r) => !listed.includes(r)), 'routes without a row').toEqual([]);
    expect(listed.filter((r) => !served.includes(r)), 'rows without a route').toEqual([]);
  });

  it('finds the row of a request by method and path, ids and query included', () => {
    expect(endpointOf('GET', '/api/auction/7/')?.route).toBe('GET /api/auction/:id/');
    expect(endpointOf('GET', '/api/auctions/best/')?.route).toBe('GET /api/auctions/best/');
    expect(endpointOf('GET', '/api/auctions/?page=2&q=x')?.route).toBe('GET /api/auctions/');
    expect(endpointOf('DELETE', '/api/auction-items/3/images/9/')?.route).toBe('DELETE /api/auction-items/:id/images/:imageId/');
    expect(endpointOf('POST', '/api/auction/7/')).toBeUndefined();
  });
});

describe('the body type of a test request (checked by tsc)', () => {
  it('comes from the table by method and path, the page or the plain list by the query', () => {
    expectTypeOf<BodyOf<'GET', `/api/auction/${number}/`>['seller_name']>().toEqualTypeOf<string>();
    expectTypeOf<BodyOf<'POST', '/api/bids/'>['min_amount']>().toEqualTypeOf<unknown>();
    expectTypeOf<BodyOf<'POST', '/api/bids/'>['bid_count']>().toEqualTypeOf<number>();
    expectTypeOf<BodyOf<'GET', '/api/auctions/?page=2'>['count']>().toEqualTypeOf<number>();
    expectTypeOf<BodyOf<'GET', '/api/auctions/?q=lampa'>[number]['first_image']>().toEqualTypeOf<string | null>();
    expectTypeOf<BodyOf<'GET', '/api/admin/users/'>[number]['is_blocked']>().toEqualTypeOf<boolean>();
    expectTypeOf<BodyOf<'GET', string>>().toBeAny();
    expectTypeOf<BodyOf<'GET', '/api/nema/'>>().toBeAny();
  });
});

describe('the contract check on every answer the tests see', () => {
  const card = {
    id: 1,
    title: 'Lampa',
    description: 'Stona lampa',
    current_price: 1000,
    end_date: '2026-11-30T10:00:00.000Z',
    category: 'home',
    city: 'Novi Sad',
    seller: 2,
    first_image: null,
    images: [],
    bid_count: 0,
    status: 'active',
    watched: false,
    buy_now_price: null,
    has_reserve: false,
    reserve_met: null,
    outcome: null,
    relisted_as: null,
  };
  const json = (method: string, url: string, status: number, body: unknown): SeenResponse => ({
    method,
    url,
    status,
    contentType: 'application/json; charset=utf-8',
    text: JSON.stringify(body),
    body,
  });

  it('keeps an answer that is exactly its schema', () => {
    expect(contractViolation(json('GET', '/api/auctions/', 200, [card]))).toBeNull();
    expect(contractViolation(json('GET', '/api/auctions/?page=1', 200, { count: 1, next: null, previous: null, results: [card] }))).toBeNull();
    expect(contractViolation(json('GET', '/api/nema/', 404, { detail: 'Nema.', message: 'Nema.', code: 'not_found' }))).toBeNull();
    expect(contractViolation({ ...json('DELETE', '/api/comments/3/delete/', 204, null), contentType: null, text: '' })).toBeNull();
  });

  it('fails an added, a missing, a renamed and a mistyped field, deep in a list too', () => {
    const { bid_count, ...missing } = card;
    expect(contractViolation(json('GET', '/api/auctions/', 200, [{ ...card, extra: 1 }]))).toMatch(/fields the contract does not name: \[0\]\.extra/);
    expect(contractViolation(json('GET', '/api/auctions/', 200, [missing]))).toMatch(/bid_count/);
    expect(contractViolation(json('GET', '/api/auctions/', 200, [{ ...missing, bids: bid_count }]))).toMatch(/bid_count/);
    expect(contractViolation(json('GET', '/api/auctions/', 200, [{ ...card, current_price: '1000' }]))).toMatch(/current_price/);
    const page = { count: 1, next: null, previous: null, results: [{ ...card, images: [{ id: 1, image: '/m/a', thumbnail: '/m/b', alt: '' }] }] };
    expect(contractViolation(json('GET', '/api/auctions/?page=1', 200, page))).toMatch(/results\[0\]\.images\[0\]\.alt/);
  });

  it('fails a success status the table does not list, and a 204 with a body', () => {
    expect(contractViolation(json('POST', '/api/bids/', 200, {}))).toMatch(/answers 201, not 200/);
    expect(contractViolation(json('DELETE', '/api/comments/3/delete/', 204, { detail: 'x' }))).toMatch(/204 with a body/);
  });

  it('holds every error to the one error shape, and a refused bid to its own', () => {
    expect(contractViolation(json('POST', '/api/login/', 401, { detail: 'Ne.' }))).toMatch(/message/);
    expect(contractViolation(json('POST', '/api/login/', 400, { detail: 'x', message: 'x', code: 'invalid', email: 'x' }))).toMatch(/email/);
    const refusal = { amount: ['Minimalna ponuda je 1010 din'], detail: 'm', message: 'm', code: 'bid_too_low', current_price: 1000, min_amount: 1010 };
    expect(contractViolation(json('POST', '/api/bids/', 400, refusal))).toBeNull();
    const { min_amount: _gone, ...withoutMin } = refusal;
    expect(contractViolation(json('POST', '/api/bids/', 400, withoutMin))).not.toBeNull();
    expect(contractViolation({ ...json('GET', '/api/auction/1/', 500, null), contentType: 'text/html', text: '<pre>' })).toMatch(/not JSON/);
  });

  it('leaves paths outside the API alone', () => {
    expect(contractViolation({ ...json('GET', '/media/a.webp', 200, null), contentType: 'image/webp' })).toBeNull();
  });
});
