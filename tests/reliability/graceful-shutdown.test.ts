/**
 * Issue 29, "Graceful shutdown", one node: the real server (a child process) gets SIGTERM in the middle of a bid
 * load. Health answers 503 at once while the node still serves for SHUTDOWN_DRAIN_SECONDS (bids keep getting
 * 201); then it stops accepting, a request in flight (its body still arriving) is answered, one that never
 * finishes is cut at SHUTDOWN_TIMEOUT_SECONDS; the watcher's transport is closed without a socket.io
 * disconnect, so its client tries to reconnect by itself; the process exits 0 within the limits. No request
 * gets a 5xx, every bid answered 201 is stored and nothing else is. Two nodes behind the proxy:
 * tests/server/multinode/drain.test.ts. The closer stopping between auctions: closer-shutdown.test.ts.
 */
import fs from 'node:fs';
import http from 'node:http';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/features/accounts/passwords';
import { freePort, tempDataDir } from '../support/app';
import { ApiClient } from '../support/http';
import { sleep, type TestSocket } from '../support/sockets';
import { rng } from '../support/reliability-load';
import { buildServerBundle, insertAuction, insertUser, removeBundle, spawnServer } from '../support/reliability-server';
import { childServerDatabase, onPostgres } from '../support/pg';

const DRAIN_MS = 1500;
const TIMEOUT_MS = 3000;
const PASSWORD = 'Lozinka123';
const BIDDERS = 5;

const cleanup: (() => Promise<void> | void)[] = [];
let bundle: string;
beforeAll(async () => {
  bundle = await buildServerBundle('shutdown');
  cleanup.push(() => removeBundle(bundle));
});
afterAll(async () => {
  for (const f of cleanup.reverse()) await f();
});

/**
 * A raw POST /api/login/ whose JSON body arrives in two parts; the second after `gap` (never, with `gap`
 * null). Resolves with the status, or 'lost' when the connection was cut.
 */
function slowPost(port: number, origin: string, gap: Promise<unknown> | null): Promise<number | 'lost'> {
  const body = Buffer.from(JSON.stringify({ email: 'niko@example.com', password: 'nije-bitno' }));
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/login/', agent: false, headers: { 'content-type': 'application/json', 'content-length': body.length, origin } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve('lost'));
    req.write(body.subarray(0, 10));
    void gap?.then(() => req.end(body.subarray(10)));
  });
}

describe('SIGTERM during a bid load (one node)', () => {
  it('health 503 at once, serves through the drain, finishes what is in flight, cuts what overruns, exits 0 within the limits', { timeout: 60_000 }, async () => {
    const dataDir = tempDataDir('aukcije-shutdown-');
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const store = await childServerDatabase(dataDir);
    cleanup.push(() => store.drop());
    const port = await freePort();
    const server = await spawnServer(bundle, dataDir, port, {
      ...store.env,
      SHUTDOWN_DRAIN_SECONDS: String(DRAIN_MS / 1000),
      SHUTDOWN_TIMEOUT_SECONDS: String(TIMEOUT_MS / 1000),
    });
    cleanup.push(() => server.kill9());
    const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
      server.proc.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
    );

    const setup = await store.open();
    const hash = await hashPassword(PASSWORD);
    const seller = await insertUser(setup, 'Prodavac Gasenje', hash);
    const people = [];
    for (let i = 0; i < BIDDERS; i++) people.push(await insertUser(setup, `Licitant Gasenje ${i + 1}`, hash));
    const hot = [await insertAuction(setup, seller.id, 'Gasenje 1', Date.now() + 3600_000), await insertAuction(setup, seller.id, 'Gasenje 2', Date.now() + 3600_000)];
    await setup.close();
    const clients = await Promise.all(
      people.map(async (p) => {
        const api = new ApiClient(server.url);
        expect((await api.post('/api/login/', { email: p.email, password: PASSWORD })).status).toBe(200);
        await api.ensureCsrf();
        return { id: p.id, api };
      }),
    );

    // A watcher as the web client holds one: reconnection on. It must be dropped by its transport, not told to go.
    const watcher: TestSocket = io(server.url, { transports: ['websocket'], reconnection: true, reconnectionDelay: 100, forceNew: true });
    cleanup.push(() => void watcher.close());
    const reasons: string[] = [];
    let attempts = 0;
    let live = 0;
    watcher.on('disconnect', (reason) => reasons.push(reason));
    watcher.io.on('reconnect_attempt', () => (attempts += 1));
    watcher.on('bid:placed', () => (live += 1));
    await new Promise<void>((resolve) => watcher.once('connect', () => resolve()));
    expect((await watcher.timeout(2000).emitWithAck('auction:join', { auction_id: hot[0] })).ok).toBe(true);

    type Sent = { at: number; bidder: number; auction: number; amount: number; status: number | 'lost'; id?: number };
    const sent: Sent[] = [];
    const known = new Map(hot.map((id) => [id, 1000]));
    const rand = rng(29);
    let over = false;
    let n = 0;
    const load = Promise.all(
      clients.map(async (c) => {
        while (!over) {
          const auction = hot[Math.floor(rand() * hot.length)];
          const amount = known.get(auction)! + 10 * (1 + Math.floor(rand() * 3));
          const at = performance.now();
          let s: Sent;
          try {
            const res = await c.api.post('/api/bids/', { auction_item_id: auction, amount }, { headers: { 'idempotency-key': `stop-${c.id}-${n++}` } });
            s = { at, bidder: c.id, auction, amount, status: res.status, id: res.status === 201 ? res.body.id : undefined };
            if (res.status === 201) known.set(auction, Math.max(known.get(auction)!, res.body.current_price));
            if (res.status === 400) known.set(auction, Math.max(known.get(auction)!, (res.body as { current_price?: number }).current_price ?? 0));
          } catch {
            s = { at, bidder: c.id, auction, amount, status: 'lost' };
            await sleep(50); // refused: the node is gone or going; try again (the load ends when it has exited)
          }
          sent.push(s);
        }
      }),
    );

    await sleep(500);
    const inFlight = slowPost(port, server.url, sleep(DRAIN_MS + 1100));
    const hung = slowPost(port, server.url, null);
    await sleep(100);
    const t0 = performance.now();
    server.proc.kill('SIGTERM');

    // The load balancer's view: health, every 50 ms, until the node stops answering.
    const health: { at: number; status: number; draining?: boolean }[] = [];
    for (;;) {
      try {
        const at = performance.now() - t0;
        const res = await fetch(`${server.url}/api/health/`, { signal: AbortSignal.timeout(1000) });
        const body = (await res.json()) as { draining?: boolean };
        health.push({ at, status: res.status, draining: body.draining });
      } catch {
        break;
      }
      await sleep(50);
    }
    const refusedAt = performance.now() - t0;
    const [inFlightStatus, hungStatus] = await Promise.all([inFlight, hung]);
    const exit = await exited;
    over = true;
    await load;
    const exitMs = exit.at - t0;

    // Health: 503 (draining: true) within moments of the signal (a check already on its way may still say 200),
    // and from then on until the node stops accepting.
    const down = health.findIndex((h) => h.status === 503);
    expect(down, JSON.stringify(health.slice(0, 3))).toBeGreaterThanOrEqual(0);
    expect(down, 'the first check sent after the signal').toBeLessThanOrEqual(1);
    expect(health[down].at).toBeLessThan(500);
    expect(health.slice(down).length).toBeGreaterThan(5);
    expect(health.slice(down).every((h) => h.status === 503 && h.draining === true)).toBe(true);
    expect(refusedAt).toBeGreaterThan(DRAIN_MS - 100);
    expect(refusedAt).toBeLessThan(DRAIN_MS + 1000);

    // Served during the drain: bids sent well after the signal and before the drain ended were accepted.
    const rel = (s: Sent) => s.at - t0;
    expect(sent.filter((s) => s.status === 201 && rel(s) > 200 && rel(s) < DRAIN_MS - 200).length).toBeGreaterThan(0);
    // After it: refused connections, never an answer from a node that is leaving.
    expect(sent.filter((s) => rel(s) > DRAIN_MS + 300).every((s) => s.status === 'lost')).toBe(true);
    expect(sent.filter((s) => s.status !== 201 && s.status !== 400 && s.status !== 'lost')).toEqual([]);
    // The request in flight got its answer (CSRF: 403) after the listener closed; the one that never ended was cut.
    expect(inFlightStatus).toBe(403);
    expect(hungStatus).toBe('lost');

    // The process: exit code 0, after the drain and the timeout (the hung request), within them plus a margin.
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exitMs).toBeGreaterThan(DRAIN_MS + TIMEOUT_MS - 200);
    expect(exitMs).toBeLessThan(DRAIN_MS + TIMEOUT_MS + 2500);

    // The watcher was live through the drain, lost its transport (not a server-side disconnect) and tries again.
    expect(live).toBeGreaterThan(0);
    expect(reasons[0]).toBe('transport close');
    await sleep(300);
    expect(attempts).toBeGreaterThan(0);
    watcher.close();

    // Every 201 is stored, as answered, and nothing else.
    const h = await store.open();
    if (!onPostgres) expect(h.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    const stored = await h.db.selectFrom('bids').select(['id', 'auction_id', 'bidder_id', 'amount']).where('auction_id', 'in', hot).orderBy('id').execute();
    await h.close();
    const acked = sent.filter((s) => s.status === 201);
    expect(stored.map((b) => b.id)).toEqual(acked.map((s) => s.id!).sort((a, b) => a - b));
    for (const s of acked) expect(stored.find((b) => b.id === s.id)).toMatchObject({ auction_id: s.auction, bidder_id: s.bidder, amount: s.amount });
    console.info(
      `[shutdown] ${sent.length} bids sent, ${acked.length} acknowledged and stored (${acked.filter((s) => rel(s) > 0).length} after SIGTERM), ` +
        `${sent.filter((s) => s.status === 'lost').length} refused after the drain; health 503 from ${Math.round(health[down].at)} ms, ` +
        `listener closed at ${Math.round(refusedAt)} ms, exit 0 at ${Math.round(exitMs)} ms`,
    );
  });

  it('SIGINT (Ctrl+C) shuts down the same way, and a second signal does not cut the drain short', { timeout: 30_000 }, async () => {
    const dataDir = tempDataDir('aukcije-sigint-');
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const store = await childServerDatabase(dataDir);
    cleanup.push(() => store.drop());
    const server = await spawnServer(bundle, dataDir, await freePort(), { ...store.env, SHUTDOWN_DRAIN_SECONDS: '1', SHUTDOWN_TIMEOUT_SECONDS: '2' });
    cleanup.push(() => server.kill9());
    const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
      server.proc.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
    );
    const t0 = performance.now();
    server.proc.kill('SIGINT');
    await sleep(200);
    // npm forwards the terminal's Ctrl+C, which the node got too: the second one changes nothing.
    server.proc.kill('SIGINT');
    await sleep(200);
    const res = await fetch(`${server.url}/api/health/`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { draining?: boolean }).draining).toBe(true);
    const exit = await exited;
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - t0).toBeGreaterThan(900);
    expect(exit.at - t0).toBeLessThan(1000 + 2000 + 2500);
  });
});
