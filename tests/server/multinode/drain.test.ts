/**
 * Issue 29, "Graceful shutdown", two nodes behind the test proxy (tests/support/node-cluster.ts): node A gets
 * SIGTERM under bid load. The proxy plays the load balancer: it polls A's health and takes A out of rotation
 * at the first 503. Bids go through the proxy (a request whose connection A closes is retried with its
 * Idempotency-Key, as a browser behind a balancer would); no request gets a 5xx, every 201 is stored and
 * nothing else; A exits 0 within its limits; the watchers on B miss no event (each applies every bid once,
 * in seq order, without a resync) and the watchers that were on A reconnect to B by themselves and resync.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../server/features/accounts/passwords';
import { ApiClient } from '../../support/http';
import { eventually } from '../../support/marketplace';
import { startNodeCluster, Watcher, type NodeCluster } from '../../support/node-cluster';
import { onPostgres } from '../../support/pg';
import { rng } from '../../support/reliability-load';
import { insertAuction, insertUser } from '../../support/reliability-server';
import { sleep } from '../../support/sockets';

const DRAIN_MS = 2000;
const TIMEOUT_MS = 5000;
const PASSWORD = 'Lozinka123';
const BIDDERS = 6;

let c: NodeCluster;
const watchers: Watcher[] = [];

describe.runIf(onPostgres)('two nodes, SIGTERM to one under bid load [PostgreSQL only: several nodes are meant for PostgreSQL; the proxy suite runs once, in test:pg]', () => {
  beforeAll(async () => {
    c = await startNodeCluster('drain', 2, { SHUTDOWN_DRAIN_SECONDS: String(DRAIN_MS / 1000), SHUTDOWN_TIMEOUT_SECONDS: String(TIMEOUT_MS / 1000) });
  }, 90_000);
  afterAll(async () => {
    for (const w of watchers.splice(0)) w.close();
    await c?.close();
  }, 30_000);

  it('A drains: health 503 moves the balancer, nothing is lost, A exits 0, B’s watchers miss nothing, A’s reconnect to B', { timeout: 60_000 }, async () => {
    const [a, b] = c.nodes;
    const portOf = (n: { url: string }) => Number(new URL(n.url).port);
    const hash = await hashPassword(PASSWORD);
    const seller = await insertUser(c.h, 'Prodavac Drain', hash);
    const people = [];
    for (let i = 0; i < BIDDERS; i++) people.push(await insertUser(c.h, `Licitant Drain ${i + 1}`, hash));
    const hot = await Promise.all([1, 2].map((i) => insertAuction(c.h, seller.id, `Drain ${i}`, Date.now() + 3600_000)));

    const watch = (url: string, auctionId: number) => {
      const w = new Watcher(url, auctionId, c.publicUrl);
      watchers.push(w);
      return w;
    };
    const onB = [0, 1, 2, 3].map((i) => watch(b.url, hot[i % 2]));
    const viaProxy = [0, 1, 2, 3, 4, 5].map((i) => watch(c.publicUrl, hot[i % 2]));
    await Promise.all([...onB, ...viaProxy].map((w) => w.ready()));
    const wereOnA = c.proxy.open().get(portOf(a)) ?? 0;
    expect(wereOnA).toBeGreaterThan(0);

    // Bidders through the balancer, logged in there (the session lives in the shared database).
    const clients = await Promise.all(
      people.map(async (p) => {
        const api = new ApiClient(c.publicUrl);
        expect((await api.post('/api/login/', { email: p.email, password: PASSWORD })).status).toBe(200);
        await api.ensureCsrf();
        return { id: p.id, api };
      }),
    );

    // The balancer's health check on A: out of rotation at the first 503.
    let outAt = 0;
    let polling = true;
    const healthOfB: number[] = [];
    const lb = (async () => {
      while (polling) {
        const res = await fetch(`${a.url}/api/health/`, { signal: AbortSignal.timeout(1000) }).catch(() => null);
        if (res) await res.arrayBuffer();
        if (!outAt && (!res || res.status === 503)) {
          outAt = performance.now();
          c.proxy.targets.splice(c.proxy.targets.indexOf(portOf(a)), 1);
          healthOfB.push((await fetch(`${b.url}/api/health/`)).status);
        }
        await sleep(100);
      }
    })();

    const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
      a.proc.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
    );
    type Sent = { bidder: number; auction: number; amount: number; status: number | 'lost'; id?: number; retried: boolean };
    const sent: Sent[] = [];
    const known = new Map(hot.map((id) => [id, 1000]));
    const rand = rng(2929);
    let exitedAt = 0;
    let allBackAt = 0;
    let n = 0;
    const stop = () => {
      if (!exitedAt) return false;
      if (!allBackAt && viaProxy.filter((w) => w.joins > 1).length >= wereOnA) allBackAt = performance.now();
      return (allBackAt > 0 && performance.now() - allBackAt > 1000) || performance.now() - exitedAt > 15_000;
    };
    void exited.then((e) => (exitedAt = e.at));
    const load = Promise.all(
      clients.map(async (client) => {
        while (!stop()) {
          const auction = hot[Math.floor(rand() * hot.length)];
          const amount = known.get(auction)! + 10 * (1 + Math.floor(rand() * 3));
          const key = `drain-${client.id}-${n++}`;
          let s: Sent = { bidder: client.id, auction, amount, status: 'lost', retried: false };
          for (let attempt = 0; attempt < 3 && s.status === 'lost'; attempt++) {
            try {
              const res = await client.api.post('/api/bids/', { auction_item_id: auction, amount }, { headers: { 'idempotency-key': key } });
              s = { ...s, status: res.status, id: res.status === 201 ? res.body.id : undefined };
              if (res.status === 201) known.set(auction, Math.max(known.get(auction)!, res.body.current_price));
              if (res.status === 400) known.set(auction, Math.max(known.get(auction)!, (res.body as { current_price?: number }).current_price ?? 0));
            } catch {
              s = { ...s, retried: true }; // the connection went with A: the same request again, through the balancer
            }
          }
          sent.push(s);
        }
      }),
    );

    await sleep(700);
    const t0 = performance.now();
    a.proc.kill('SIGTERM');
    const exit = await exited;
    await load;
    polling = false;
    await lb;

    // The balancer saw A's 503 at once and B stayed healthy; A exited 0 after its drain, within its limits.
    expect(outAt - t0).toBeLessThan(500);
    expect(healthOfB).toEqual([200]);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - t0).toBeGreaterThan(DRAIN_MS - 100);
    expect(exit.at - t0).toBeLessThan(DRAIN_MS + TIMEOUT_MS + 2500);

    // No 5xx, nothing lost: every request got an answer (after at most a retry with its key), every 201 is stored.
    expect(sent.filter((s) => s.status !== 201 && s.status !== 400)).toEqual([]);
    const acked = sent.filter((s) => s.status === 201);
    const stored = await c.h.db.selectFrom('bids').select(['id', 'auction_id', 'bidder_id', 'amount']).where('auction_id', 'in', hot).orderBy('id').execute();
    expect(stored.map((s) => s.id), 'exactly the acknowledged bids are stored').toEqual(acked.map((s) => s.id!).sort((x, y) => x - y));
    for (const s of acked) expect(stored.find((x) => x.id === s.id)).toMatchObject({ auction_id: s.auction, bidder_id: s.bidder, amount: s.amount });

    const rows = new Map(
      (await c.h.db.selectFrom('auctions').select(['id', 'seq', 'current_price', 'bid_count']).where('id', 'in', hot).execute()).map((r) => [r.id, r]),
    );
    // The watchers on B: every bid once, in seq order, from their one join; no resync was needed.
    for (const w of onB) {
      const r = rows.get(w.auctionId)!;
      await eventually(() => w.state.seq === r.seq, 5000);
      expect(w.applied, 'B’s watchers apply every bid once, in order').toEqual(Array.from({ length: r.seq - w.snapshots[0] }, (_, i) => w.snapshots[0] + 1 + i));
      expect([w.gaps, w.joins]).toEqual([0, 1]);
    }
    // The watchers that were on A lost their transport, reconnected through the balancer to B and resynced.
    const moved = viaProxy.filter((w) => w.joins > 1);
    expect(moved.length).toBe(wereOnA);
    expect([...c.proxy.open().keys()]).toEqual([portOf(b)]);
    for (const w of viaProxy) {
      const r = rows.get(w.auctionId)!;
      await eventually(() => w.state.seq === r.seq, 5000);
      expect(w.state).toEqual({ seq: r.seq, current_price: r.current_price, bid_count: r.bid_count });
      expect(w.applied.every((s, i) => i === 0 || s > w.applied[i - 1]), 'never applied twice or backwards').toBe(true);
    }
    console.info(
      `[multinode] SIGTERM to A under load: ${sent.length} bids, ${acked.length} acknowledged and stored, ${sent.filter((s) => s.retried).length} retried after A closed their connection; ` +
        `A out of rotation after ${Math.round(outAt - t0)} ms, exit 0 after ${Math.round(exit.at - t0)} ms; ${moved.length} watchers moved to B, ${onB.length} on B missed nothing`,
    );
  });
});
