/**
 * Issue 29, "Faults, on two nodes": Redis gone under bid and watch load. Two server processes on one PostgreSQL
 * database share a Redis server of the test's own (tests/support/faults.ts), killed with SIGKILL under load and
 * started again on the same port, empty. The machine's Redis is never stopped. PostgreSQL run only
 * (`npm run test:pg`).
 *
 * While Redis is away both nodes keep serving (bids are accepted: nothing in a bid waits for Redis) and
 * /api/health/ says 503 `redis: down`; watchers miss the other node's events, see the gap in the seqs and
 * resync (join again, snapshot). Once Redis is back, events cross between the nodes again, every watcher ends
 * on the database's state, and every acknowledged bid is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/features/accounts/passwords';
import { ApiClient } from '../support/http';
import { eventually } from '../support/marketplace';
import { loginOn, startNodeCluster, Watcher, type NodeCluster } from '../support/node-cluster';
import { onPostgres } from '../support/pg';
import { insertAuction, insertUser } from '../support/reliability-server';
import { sleep } from '../support/sockets';
import { pollHealth, startOwnRedis, steadyLoad, type Answer, type OwnRedis } from '../support/faults';

const PASSWORD = 'Lozinka123';
const AWAY_MS = 3000;

let c: NodeCluster;
let redis: OwnRedis;
let people: { id: number; email: string }[] = [];
let sellerId: number;
const watchers: Watcher[] = [];

describe.skipIf(!onPostgres)('Redis gone under bid and watch load, two nodes [PostgreSQL run]', () => {
  beforeAll(async () => {
    redis = await startOwnRedis();
    c = await startNodeCluster('redis-fault', 2, { REDIS_URL: redis.url });
    const hash = await hashPassword(PASSWORD);
    sellerId = (await insertUser(c.h, 'Prodavac Redis', hash)).id;
    people = [];
    for (let i = 0; i < 6; i++) people.push(await insertUser(c.h, `Licitant Redis ${i + 1}`, hash));
  }, 60_000);

  afterAll(async () => {
    for (const w of watchers.splice(0)) w.close();
    await c?.close();
    await redis?.close();
  }, 30_000);

  it('nodes stay up and accept bids, health says 503 while it is away; live events resume, watchers resync, no acknowledged bid is lost', async () => {
    const auctions = await Promise.all([1, 2].map((i) => insertAuction(c.h, sellerId, `Bez Redisa ${i}`, Date.now() + 3600_000)));
    // Three watchers per auction on each node.
    const nodeOf = new Map<Watcher, string>();
    for (const id of auctions) {
      for (let i = 0; i < 6; i++) {
        const w = new Watcher(c.nodes[i % 2]!.url, id, c.publicUrl);
        nodeOf.set(w, c.nodes[i % 2]!.url);
        watchers.push(w);
      }
    }
    await Promise.all(watchers.map((w) => w.ready()));
    const bidders = await Promise.all(people.map(async (p, i) => ({ id: p.id, api: await loginOn(c, c.nodes[i % 2]!, p.email, PASSWORD) })));
    const readers = c.nodes.map((n) => new ApiClient(n.url, c.publicUrl));
    const pids = c.nodes.map((n) => n.proc.pid);

    const answers: Answer[] = [];
    const health: { node: string; at: number; status: number | 'lost'; body: unknown }[] = [];
    let stop = false;
    const load = steadyLoad({ bidders, readers, auctions, until: () => stop, answers, pauseMs: 30 });
    const polling = pollHealth(
      c.nodes.map((n) => n.url),
      () => stop,
      health,
    );
    await sleep(1500);
    await redis.kill();
    const goneAt = Date.now();
    await sleep(AWAY_MS);
    await redis.start();
    const backAt = Date.now();
    // Both nodes healthy again (their clients reconnected), then a stretch of load with live events.
    await eventually(() => c.nodes.every((n) => health.some((h) => h.node === n.url && h.at > backAt && h.status === 200)), 15_000, 100);
    const liveFrom = Date.now();
    await sleep(2500);
    stop = true;
    await Promise.all([load, polling]);

    // Nodes up and serving throughout: only 201/400 for bids and 200 for reads, bids accepted on both while away.
    const odd = answers.filter((a) => !(a.what === 'bid' ? [201, 400] : [200]).includes(a.status as number));
    expect(odd.map((a) => `${a.what} ${a.node} ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`)).toEqual([]);
    for (const n of c.nodes) expect(answers.some((a) => a.node === n.url && a.status === 201 && a.at > goneAt && a.at < backAt), `bids accepted on ${n.url} while Redis was away`).toBe(true);
    expect(c.nodes.map((n) => [n.proc.pid, n.proc.exitCode])).toEqual(pids.map((p) => [p, null]));
    // Health: 503 `redis: down` while away (after the first failed PING), 200 at the end.
    for (const n of c.nodes) {
      const away = health.filter((h) => h.node === n.url && h.at > goneAt + 1500 && h.at < backAt - 200);
      expect(away.length).toBeGreaterThan(0);
      for (const h of away) expect(h).toMatchObject({ status: 503, body: { status: 'unavailable', database: 'ok', redis: 'down' } });
      expect(health.filter((h) => h.node === n.url).at(-1)).toMatchObject({ status: 200, body: { status: 'ok', redis: 'ok' } });
    }

    // No acknowledged bid lost, none extra; the ladders add up.
    const acked = answers.filter((a) => a.what === 'bid' && a.status === 201);
    const stored = await c.h.db.selectFrom('bids').select(['id', 'auction_id', 'bidder_id', 'amount']).where('auction_id', 'in', auctions).orderBy('id').execute();
    expect(stored.map((s) => s.id)).toEqual(acked.map((a) => (a.body as { id: number }).id).sort((x, y) => x - y));
    for (const a of acked) expect(stored.find((s) => s.id === (a.body as { id: number }).id)).toMatchObject({ auction_id: a.auction, bidder_id: a.bidder, amount: a.amount });

    // Every watcher ends on the database's state, never applied a bid twice or backwards, and the ones that
    // missed the other node's events resynced.
    for (const w of watchers) {
      const row = await eventually(async () => {
        const r = await c.h.db.selectFrom('auctions').select(['seq', 'current_price', 'bid_count']).where('id', '=', w.auctionId).executeTakeFirstOrThrow();
        return w.state.seq === r.seq ? r : undefined;
      }, 5000);
      expect(w.state).toEqual({ seq: row!.seq, current_price: row!.current_price, bid_count: row!.bid_count });
      expect(w.applied.every((s, i) => i === 0 || s > w.applied[i - 1]!), 'never applied twice or backwards').toBe(true);
    }
    const resynced = watchers.filter((w) => w.joins > 1);
    expect(resynced.length, 'watchers that saw a gap and joined again').toBeGreaterThan(0);

    // Live again: after Redis came back, each watcher applied, as events, bids that the other node accepted.
    const otherNodeSeqs = (w: Watcher) => {
      const node = nodeOf.get(w);
      return new Set(acked.filter((a) => a.auction === w.auctionId && a.node !== node && a.at > liveFrom).map((a) => (a.body as { bid_count: number }).bid_count));
    };
    for (const w of watchers) {
      const crossed = w.applied.filter((s) => otherNodeSeqs(w).has(s));
      expect(crossed.length, `events from the other node after Redis came back (watcher of ${w.auctionId})`).toBeGreaterThan(0);
    }
    console.info(
      `[faults] Redis killed for ${AWAY_MS} ms: ${answers.length} answers, ${acked.length} bids acknowledged and stored ` +
        `(${acked.filter((a) => a.at > goneAt && a.at < backAt).length} while Redis was away); ${resynced.length} of ${watchers.length} watchers resynced, all live again`,
    );
  }, 60_000);
});
