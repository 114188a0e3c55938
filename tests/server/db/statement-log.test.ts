/**
 * The statement log the query-count tests rely on (tests/support/statements.ts) counts a request's own
 * statements only: the closer's pass (closing auctions, ending-soon alerts), which runs every second and under
 * a loaded CI can overlap every run of a measured request, is left out by its call stack, on SQLite and on
 * PostgreSQL alike. Without that, the N+1 tests (lists, list-cards) count the closer's statements too.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser } from '../../support/factories';
import { ApiClient } from '../../support/http';
import { recordStatementsOf } from '../../support/statements';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ ENDING_SOON_SECONDS: '1' });
});
afterAll(async () => {
  await t?.close();
});

it("records a request's statements and none of the closer's, which closes an auction and sends its alert meanwhile", async () => {
  const seller = await createUser(t.ctx);
  const watcher = await createUser(t.ctx);
  const a = await createAuction(t.ctx, seller.id, { endsInMs: 1600 });
  await t.ctx.db.insertInto('watchlist').values({ user_id: watcher.id, auction_id: a.id, created_at: new Date().toISOString() }).execute();

  const log = recordStatementsOf(t.ctx);
  let during: string[];
  try {
    // The closer claims the alert when 1 s is left, then closes the auction: several passes, many statements.
    await new Promise((r) => setTimeout(r, 2600));
    const quiet = [...log.sources];
    const res = await new ApiClient(t.url).get('/api/auctions/?page=1');
    expect(res.status).toBe(200);
    during = log.sources.slice(quiet.length);
    expect(quiet).toEqual([]);
  } finally {
    log.stop();
  }
  expect(during.some((s) => /\bauctions\b/i.test(s))).toBe(true);

  const row = await t.ctx.db.selectFrom('auctions').select(['status', 'ending_soon_at']).where('id', '=', a.id).executeTakeFirstOrThrow();
  expect(row.status).not.toBe('active');
  expect(row.ending_soon_at).not.toBeNull();
  const alerts = await t.ctx.db.selectFrom('notifications').select('id').where('user_id', '=', watcher.id).execute();
  expect(alerts.length).toBeGreaterThan(0);
});
