/**
 * Issue 23, the rating window in seconds: AUCTION_DAY_SECONDS=1 and RATING_WINDOW_DAYS=4 make the window four
 * seconds after the end (soft close off, so the bid does not move the end). A real sale (a bid, then the closer's close), both sides inside and outside the window.
 * Runs on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { actor, auctionRow, bid, eventually, type Actor } from '../../support/marketplace';
import { sleep } from '../../support/sockets';

let t: TestServer;
let seller: Actor;
let buyer: Actor;

beforeAll(async () => {
  t = await startTestServer({ AUCTION_DAY_SECONDS: '1', RATING_WINDOW_DAYS: '4', SOFT_CLOSE_SECONDS: '0' });
  [seller, buyer] = await Promise.all([actor(t, { first_name: 'Sanja' }), actor(t, { first_name: 'Bojan' })]);
});
afterAll(() => t?.close());

describe('RATING_WINDOW_DAYS auction days after the end', () => {
  it('is read from the environment (default 30) and refused at start when not a positive number', () => {
    expect(loadConfig({}).ratingWindowDays).toBe(30);
    expect(loadConfig({ RATING_WINDOW_DAYS: '7' }).ratingWindowDays).toBe(7);
    for (const bad of ['0', '-1', 'dani']) expect(() => loadConfig({ RATING_WINDOW_DAYS: bad })).toThrow(ConfigError);
  });

  it('lets both sides rate inside the window and refuses with 400 once it has passed', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { endsInMs: 1500, title: 'Sat' });
    expect((await bid(buyer.api, a.id, 1010)).status).toBe(201);
    // Not a sale until the closer has closed it with a winner.
    expect((await buyer.api.post(`/api/sales/${a.id}/rating/`, { value: 'positive' })).status).toBe(404);
    const closed = (await eventually(async () => {
      const row = await auctionRow(t, a.id);
      return row.status === 'ended' ? row : undefined;
    }, 8000))!;
    expect(closed.winner_id).toBe(buyer.user.id);

    const sale = (await buyer.api.get('/api/sales/')).body.results[0]!;
    expect(sale).toMatchObject({ auction_id: a.id, role: 'buyer', ended_at: closed.end_date });
    expect(Date.parse(sale.rate_until) - Date.parse(closed.end_date)).toBe(4000);

    const inside = await buyer.api.post(`/api/sales/${a.id}/rating/`, { value: 'positive', comment: 'Brzo i korektno.' });
    expect(inside.status).toBe(201);
    await sleep(Date.parse(sale.rate_until) - Date.now() + 300);
    const late = await seller.api.post(`/api/sales/${a.id}/rating/`, { value: 'positive' });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ code: 'window_closed', detail: 'Rok za ocenjivanje je istekao.' });
    // A rating already given may still be answered: the answer has no window.
    expect((await seller.api.post(`/api/ratings/${inside.body.id}/reply/`, { content: 'Hvala na kupovini!' })).status).toBe(201);
  }, 30_000);
});
