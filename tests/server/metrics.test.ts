/**
 * Issue 29, "Metrics": GET /metrics in the Prometheus text format (prom-client), only with METRICS_TOKEN and
 * only for `Authorization: Bearer <token>` (otherwise the JSON 404 of an unknown path; without the variable,
 * 404 always). The default process metrics, HTTP durations by route template and status, bids by outcome and
 * reason, sockets connected, room joins, events fanned out, the closer's lag and close delay, database
 * statement durations; no e-mail, name or id in any label.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/app';
import { actor, bid, eventually } from '../support/marketplace';
import { auctionOf } from '../support/security-world';
import { emitWithAck, socketTracker } from '../support/sockets';
import { itSqliteOnly } from '../support/pg';
import { isoAt } from '../../server/lib/time';

const TOKEN = 'metrics-token-0123456789abcdef';
const sockets = socketTracker();
let t: TestServer;
let off: TestServer;

beforeAll(async () => {
  t = await startTestServer({ METRICS_TOKEN: TOKEN });
  off = await startTestServer();
});
afterAll(async () => {
  sockets.closeAll();
  await t?.close();
  await off?.close();
});

const scrape = (server: TestServer, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => fetch(`${server.url}/metrics`, { headers });

async function metricsText(): Promise<string> {
  const res = await scrape(t);
  expect(res.status).toBe(200);
  return res.text();
}

/** The value of the sample `name{labels}` (labels in any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('GET /metrics: who may read it', () => {
  it('answers the JSON 404 without a token, with a wrong one, with another scheme, and always on a node without METRICS_TOKEN', async () => {
    const refused: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-0123456789abcdef' }, { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }, { authorization: TOKEN }];
    for (const headers of refused) {
      const res = await scrape(t, headers);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(((await res.json()) as { detail: string }).detail).toEqual(expect.any(String));
    }
    const any: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}` }];
    for (const headers of any) {
      const res = await scrape(off, headers);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('# TYPE');
    }
  });

  it('a logged-in admin gets the same 404 without the token: a session opens nothing here', async () => {
    const admin = await actor(t, { admin: true });
    const res = await admin.api.get('/metrics');
    expect(res.status).toBe(404);
  });

  it('answers the Prometheus text format with the bearer token, uncached, with the default process metrics', async () => {
    const res = await scrape(t);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });
});

describe('GET /metrics: what it counts', () => {
  it('HTTP durations by route template and status; bids by outcome and reason; sockets, room joins, events; statements; the closer', async () => {
    const seller = await actor(t, { first_name: 'Prodavka Metrika', email: 'prodavka.metrika@example.com' });
    const bidder = await actor(t, { first_name: 'Licitant Metrika', email: 'licitant.metrika@example.com' });
    const auction = await auctionOf(t, seller.user.id, { title: 'Tajni naslov metrike' });
    const watcher = await sockets.connect(t.url);
    expect((await emitWithAck(watcher, 'auction:join', { auction_id: auction.id })).ok).toBe(true);
    expect((await emitWithAck(watcher, 'auctions:watch', { auction_ids: [auction.id, (await auctionOf(t, seller.user.id)).id] })).ok).toBe(true);

    expect((await bid(bidder.api, auction.id, 1010)).status).toBe(201);
    expect((await bid(bidder.api, auction.id, 1010)).status).toBe(400);
    expect((await bid(seller.api, auction.id, 5000)).status).toBe(400);
    expect((await bidder.api.get(`/api/auction/${auction.id}/`)).status).toBe(200);
    expect((await bidder.api.get('/api/nema-ovoga/')).status).toBe(404);
    // A visitor's popular list twice: the second answer comes from the list cache, before the API's stack.
    for (let i = 0; i < 2; i++) expect((await fetch(`${t.url}/api/auctions/best/?metrika=1`)).status).toBe(200);
    // An auction that ends now: the closer closes it within a second and observes how late it was.
    await auctionOf(t, seller.user.id, { endsInMs: 300 });
    t.ctx.closer.rearm();
    const text: string = await eventually(async () => {
      const s = await metricsText();
      // The close delay is observed inside the close's transaction, its auction:closed fanned out after the commit.
      return (sample(s, 'aukcije_auction_close_delay_seconds_count') ?? 0) >= 1 && (sample(s, 'aukcije_events_fanned_out_total', { event: 'auction:closed' }) ?? 0) >= 1 ? s : '';
    }, 5000);

    expect(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/bids/', status_code: '201' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/bids/', status_code: '400' })).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/auction/:id/', status_code: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/*', status_code: '404' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/auctions/best/', status_code: '200' })).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_bucket', { route: '/api/bids/', status_code: '201', le: '+Inf' })).toBe(1);
    expect(sample(text, 'aukcije_bids_total', { kind: 'bid', outcome: 'accepted', reason: 'none' })).toBe(1);
    expect(sample(text, 'aukcije_bids_total', { kind: 'bid', outcome: 'refused', reason: 'bid_too_low' })).toBe(1);
    expect(sample(text, 'aukcije_bids_total', { kind: 'bid', outcome: 'refused', reason: 'own_auction' })).toBe(1);
    expect(sample(text, 'aukcije_sockets_connected')).toBe(1);
    expect(sample(text, 'aukcije_room_joins_total', { kind: 'join' })).toBe(1);
    expect(sample(text, 'aukcije_room_joins_total', { kind: 'watch' })).toBe(1); // the first auction's room was joined already
    expect(sample(text, 'aukcije_events_fanned_out_total', { event: 'bid:placed' })).toBe(1);
    expect(sample(text, 'aukcije_events_fanned_out_total', { event: 'auction:closed' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'aukcije_db_query_duration_seconds_count', { operation: 'select', status: 'ok' })).toBeGreaterThan(5);
    expect(sample(text, 'aukcije_db_query_duration_seconds_count', { operation: 'update', status: 'ok' })).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'aukcije_closer_lag_seconds')).toBe(0);

    watcher.close();
    await eventually(async () => sample(await metricsText(), 'aukcije_sockets_connected') === 0, 3000);

    // No user data in any label: names, e-mails, titles, ids (a path with an id would be `/…/7/`).
    const labels = [...text.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]).join('\n');
    for (const secret of ['Prodavka', 'Licitant', 'metrika@', 'Tajni naslov']) expect(text).not.toContain(secret);
    expect(labels).not.toMatch(/\/\d+(\/|")/);
    const routes = new Set([...labels.matchAll(/route="([^"]*)"/g)].map((m) => m[1]));
    for (const r of routes) expect(r).toMatch(/^\/[\w\-/:.*]*$/);
    expect(routes.has(`/api/auction/${auction.id}/`)).toBe(false);
  });

  itSqliteOnly('inserts an overdue auction and reads the gauge before the closer can run, on its one connection', "the closer's lag: seconds since the oldest open auction was due", async () => {
    const seller = await actor(t);
    const due = isoAt(Date.now() - 90_000);
    // Synchronous insert, then the scrape's reads in the same turn of the event loop: the closer's timer cannot run between.
    t.ctx.sqlite
      .prepare(
        `insert into auctions (seller_id, title, description, category, city, phone_number, starting_price, current_price, bid_count,
          end_date, original_end_date, status, winner_id, search_text, created_at, closed_at)
         values (?, 'Zakasnela', 'Opis', 'electronics', 'Beograd', '0641234567', 1000, 1000, 0, ?, ?, 'active', null, 'zakasnela', ?, null)`,
      )
      .run(seller.user.id, due, due, due);
    const lagged = sample((await t.ctx.metrics.render()).body, 'aukcije_closer_lag_seconds') ?? 0;
    expect(lagged).toBeGreaterThanOrEqual(89);
    expect(lagged).toBeLessThan(120);
    // The closer catches up within a second: the lag is back to 0.
    await eventually(async () => sample(await metricsText(), 'aukcije_closer_lag_seconds') === 0, 5000);
  });
});
