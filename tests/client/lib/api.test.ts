/**
 * `api(route, input)`: the app's requests typed by the REST contract's table (shared/api.ts). The route names
 * the method and the path; the input's params fill the path, its query the search (in the order given, empty
 * values left out), its body goes as JSON (FormData as it is); the answer's type is the table's output. The
 * error behaviour is apiFetch's (tests/client/auth/session-end.test.tsx).
 */
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { AuctionDetail, AuctionCard, Paged } from '@shared/schemas/auctions';
import type { PlacedBidResponse } from '@shared/schemas/bids';
import { api, ApiError, routePath } from '../../../client/src/lib/api';
import { stubFetch } from '../app/test-utils';

afterEach(() => vi.unstubAllGlobals());

describe('routePath', () => {
  it('fills path parameters and writes the query in order, leaving empty values out', () => {
    expect(routePath('GET /api/auction/:id/', { id: 7 })).toBe('/api/auction/7/');
    expect(routePath('DELETE /api/auction-items/:id/images/:imageId/', { id: 3, imageId: 'a b' })).toBe('/api/auction-items/3/images/a%20b/');
    expect(routePath('GET /api/auctions/', {}, { category: undefined, page: 2, page_size: 12, sort: 'endDateAsc', q: '' })).toBe(
      '/api/auctions/?page=2&page_size=12&sort=endDateAsc',
    );
    expect(routePath('GET /api/auctions/best/')).toBe('/api/auctions/best/');
  });

  it('refuses a path parameter it was not given', () => {
    expect(() => routePath('GET /api/auction/:id/', {})).toThrow(':id');
  });
});

describe('api()', () => {
  it('sends the route’s method, path and JSON body, with the CSRF header on a write', async () => {
    const calls = stubFetch({ 'POST /api/bids/': { status: 201, body: { id: 1 } } });
    await api('POST /api/bids/', { body: { auction_item_id: 4, amount: 1210 } });
    expect(calls).toEqual([
      expect.objectContaining({ method: 'POST', path: '/api/bids/', body: { auction_item_id: 4, amount: 1210 } }),
    ]);
    expect(calls[0]!.headers['X-CSRFToken']).toBe('test-token');
  });

  it('reads with GET and the query; an error answer is an ApiError', async () => {
    const calls = stubFetch({ 'GET /api/auction/9/': { status: 404, body: { detail: 'Nema', code: 'not_found' } } });
    await expect(api('GET /api/auction/:id/', { params: { id: 9 } })).rejects.toBeInstanceOf(ApiError);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/auction/9/']);
  });

  it('is typed by the table: input per route, the answer as the table promises it', () => {
    expectTypeOf(api<'GET /api/auction/:id/', { params: { id: number } }>).returns.resolves.toEqualTypeOf<AuctionDetail>();
    expectTypeOf(api<'POST /api/bids/', { body: { auction_item_id: number; amount: number } }>).returns.resolves.toEqualTypeOf<PlacedBidResponse>();
    // A list asked for a page answers the page.
    expectTypeOf(api<'GET /api/auctions/', { query: { page: number } }>).returns.resolves.toEqualTypeOf<Paged<AuctionCard>>();
    expectTypeOf(api<'DELETE /api/watchlist/:auctionId/', { params: { auctionId: number } }>).returns.resolves.toEqualTypeOf<undefined>();
    const never = () => {
      // @ts-expect-error the path parameter is missing
      void api('GET /api/auction/:id/');
      // @ts-expect-error the body lacks the amount
      void api('POST /api/bids/', { body: { auction_item_id: 1 } });
      // @ts-expect-error no such route
      void api('GET /api/nowhere/');
      // @ts-expect-error the query names no such key
      void api('GET /api/auctions/', { query: { pg: 1 } });
    };
    expect(never).toBeTypeOf('function');
  });
});
