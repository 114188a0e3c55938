/**
 * The several-nodes rows (docs/scaling.md): B1 and B2 on one node with PostgreSQL + Redis and on two nodes
 * sharing one PostgreSQL database and one Redis, next to the single SQLite node in the same run; B3 on a
 * PostgreSQL database.
 *
 * Every run creates its own databases (`aukcije_bench_<pid>_<label>` on BENCH_DATABASE_URL,
 * TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test) and its own Redis prefix
 * (BENCH_REDIS_URL, TEST_REDIS_URL or redis://127.0.0.1:6379), and removes them afterwards; its first
 * database also drops those that runs which are gone left behind.
 */
import { createDatabase, DEFAULT_ADMIN_URL, dropDatabase, dropDatabasesOfGoneRuns } from '../../lib/harness/postgres';
import { DEFAULT_REDIS_URL, dropRedisPrefix } from '../../lib/harness/redis';
import type { HttpJob, HttpResult } from '../loadgen/http-load';
import type { WatchConfig, WatchResult } from '../loadgen/watchers';
import { BENCH_PASSWORD, seedBench, type SeedResult } from '../seed-100k';
import { b3, holdSockets, seeded, type BenchCtx } from './benchmarks';
import { getJson, loginAll } from './client';
import type { Row } from './options';
import { freshDataDir, runLoad, SERVER_CPU, startServer, type Running } from './proc';
import { fmt, median } from './stats';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? DEFAULT_ADMIN_URL;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? DEFAULT_REDIS_URL;
const SECRET = 'bench-session-secret-0123456789';

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

let swept: Promise<void> | undefined;

/**
 * Drops the `aukcije_bench_<pid>_…` databases of runs that are gone (killed, crashed before their cleanup), once
 * per run; those of a run still going (another checkout, CI) stay, like tests/support/pg.ts does for test runs.
 */
export function sweepDeadBenchDatabases(): Promise<void> {
  swept ??= dropDatabasesOfGoneRuns(ADMIN_URL, 'aukcije\\_bench\\_%', (name) => Number(/^aukcije_bench_(\d+)_/.exec(name)?.[1]) || undefined);
  return swept;
}

/** A new, empty PostgreSQL database for this run; drop() removes it (closing what is still connected). */
export async function createBenchDatabase(label: string): Promise<BenchDatabase> {
  await sweepDeadBenchDatabases();
  const name = `aukcije_bench_${process.pid}_${label}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  await dropDatabase(ADMIN_URL, name);
  const url = await createDatabase(ADMIN_URL, name);
  return { url, drop: () => dropDatabase(ADMIN_URL, name) };
}

/** A Redis key prefix for this run; drop() deletes whatever keys were written under it. */
export async function benchRedisPrefix(label: string): Promise<{ url: string; prefix: string; drop(): Promise<void> }> {
  const prefix = `aukcije-bench-${process.pid}-${label}:`;
  return { url: REDIS_URL, prefix, drop: () => dropRedisPrefix(prefix, REDIS_URL) };
}

interface Cluster {
  /** The first node: logins and the API checks go there; its URL is every node's PUBLIC_URL. */
  nodes: Running[];
  seed: SeedResult;
  stop(): Promise<void>;
}

/**
 * `count` nodes on one new PostgreSQL database and one Redis prefix, started as an operator starts them
 * (the built server with DATABASE_URL, REDIS_URL, REDIS_PREFIX, SESSION_SECRET, one PUBLIC_URL). One node
 * is pinned to the server core like the SQLite node; two nodes are left to the scheduler, sharing both
 * cores with PostgreSQL, Redis and the load generator.
 */
async function startCluster(ctx: BenchCtx, label: string, count: number, bidders: number): Promise<Cluster> {
  const db = await createBenchDatabase(label);
  const redis = await benchRedisPrefix(label);
  const nodes: Running[] = [];
  try {
    const seed = await seedBench('', { auctions: 10, bidders, databaseUrl: db.url });
    const env = { DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, SESSION_SECRET: SECRET };
    const cpu = count === 1 ? SERVER_CPU : null;
    const dataDir = () => {
      const d = freshDataDir(label);
      ctx.cleanup.push(d);
      return d;
    };
    nodes.push(await startServer({ dataDir: dataDir(), source: ctx.source, env, cpu }));
    for (let i = 1; i < count; i++) nodes.push(await startServer({ dataDir: dataDir(), source: ctx.source, env: { ...env, PUBLIC_URL: nodes[0].url }, cpu }));
    ctx.log(`${label}: ${count} node(s) on PostgreSQL + Redis`);
    return {
      nodes,
      seed,
      async stop() {
        await Promise.all(nodes.map((n) => n.stop()));
        await db.drop().catch((e) => ctx.log(`dropping the bench database failed: ${(e as Error).message}`));
        await redis.drop().catch((e) => ctx.log(`removing the bench Redis keys failed: ${(e as Error).message}`));
      },
    };
  } catch (err) {
    await Promise.all(nodes.map((n) => n.stop()));
    await db.drop().catch(() => undefined);
    throw err;
  }
}

interface Setup {
  key: 'sqlite' | 'pg1' | 'pg2';
  name: string;
  nodes: Running[];
  seed: SeedResult;
}

const NAMES = { sqlite: 'SQLite node', pg1: '1 node + PostgreSQL + Redis', pg2: '2 nodes + PostgreSQL + Redis' } as const;

async function setups(ctx: BenchCtx, label: string, bidders: number): Promise<{ all: Setup[]; stop(): Promise<void> }> {
  const stops: (() => Promise<void>)[] = [];
  const all: Setup[] = [];
  try {
    const { dir, seed } = await seeded(ctx, `${label}-sqlite`, 10, bidders);
    const server = await startServer({ dataDir: dir, source: ctx.source });
    stops.push(() => server.stop());
    all.push({ key: 'sqlite', name: NAMES.sqlite, nodes: [server], seed });
    for (const [key, n] of [['pg1', 1], ['pg2', 2]] as const) {
      const c = await startCluster(ctx, `${label}_${key}`, n, bidders);
      stops.push(() => c.stop());
      all.push({ key, name: NAMES[key], nodes: c.nodes, seed: c.seed });
    }
  } catch (err) {
    for (const s of stops) await s().catch(() => undefined);
    throw err;
  }
  return {
    all,
    async stop() {
      for (const s of stops) await s().catch(() => undefined);
    },
  };
}

const origin = (s: Setup) => s.nodes[0].url;

const bases = (s: Setup) => s.nodes.map((n) => n.url);

// ---------------------------------------------------------------- B1 on several nodes

export async function b1nodes(ctx: BenchCtx): Promise<Row[]> {
  const { bidders, watchers, seconds } = ctx.sizes.b1;
  const { all, stop } = await setups(ctx, 'b1n', bidders);
  const held: { stop(): Promise<void> }[] = [];
  try {
    for (const s of all) for (const n of s.nodes) held.push(await holdSockets(n.url, Math.ceil(watchers / s.nodes.length), s.seed.hotAuctionId));
    const ids = new Map<string, Awaited<ReturnType<typeof loginAll>>>();
    for (const s of all) ids.set(s.key, await loginAll(origin(s), s.seed.bidders.map((b) => b.email), BENCH_PASSWORD));
    const jobs: HttpJob[] = [];
    for (let r = 0; r < ctx.sizes.rounds; r++)
      for (const s of all)
        jobs.push({
          label: s.key,
          base: origin(s),
          bases: bases(s),
          origin: origin(s),
          method: 'POST',
          paths: ['/api/bids/'],
          concurrency: bidders,
          seconds,
          identities: ids.get(s.key),
          bid: { auctionId: s.seed.hotAuctionId, startPrice: s.seed.hotStartPrice },
        });
    // All three hot auctions may have the same id; the load generator keys "highest accepted" by auction id,
    // so a setup may start above its own price: the amounts only grow faster, and each is still a valid bid.
    const results = await runLoad<HttpResult[]>('http-load.ts', jobs);
    const rows: Row[] = [];
    const sqliteRps = median(results.filter((r) => r.label === 'sqlite').map((r) => r.rps));
    for (const s of all) {
      const mine = results.filter((r) => r.label === s.key);
      const accepted = mine.flatMap((r) => r.accepted ?? []);
      const detail = await getJson<{ current_price: number; bid_count: number }>(`${origin(s)}/api/auction/${s.seed.hotAuctionId}/`);
      const errors = mine.reduce((n, r) => n + r.errors + r.timeouts + Object.entries(r.statuses).filter(([k]) => k !== '201' && k !== '400').reduce((a, [, v]) => a + v, 0), 0);
      const checks = { priceIsMaxAccepted: detail.current_price === Math.max(s.seed.hotStartPrice, ...accepted), bidCountIsAccepted: detail.bid_count === accepted.length, noErrors: errors === 0 };
      const ok = Object.values(checks).every(Boolean);
      const rps = median(mine.map((r) => r.rps));
      if (s.key === 'sqlite') continue;
      const ratio = rps / sqliteRps;
      rows.push({
        id: s.key === 'pg1' ? 'B1pg' : 'B1x2',
        what: `bids/s, ${bidders} bidders on one auction, ${watchers} watchers: ${s.name}`,
        subject: `${fmt(rps, 0)} answers/s (p99 ${fmt(median(mine.map((r) => r.p99)))} ms)`,
        baseline: `${fmt(sqliteRps, 0)} answers/s SQLite node`,
        ratio: `${fmt(ratio, 2)}×`,
        goal: s.key === 'pg1' ? '≥ 0.5× the SQLite node; 0 errors; price/bid_count correct' : 'none on 2 cores (ratio reported); 0 errors; price/bid_count correct',
        pass: s.key === 'pg1' ? ratio >= 0.5 && ok : ok ? null : false,
        notes: [
          `${s.name}: accepted ${accepted.length}, errors/other statuses ${errors}; checks: ${Object.entries(checks)
            .map(([k, v]) => `${k}=${v ? 'ok' : 'FAIL'}`)
            .join(', ')}`,
          `per round ${s.name} / SQLite node answers/s: ${mine.map((r, i) => `${fmt(r.rps, 0)}/${fmt(results.filter((x) => x.label === 'sqlite')[i].rps, 0)}`).join(', ')}`,
        ],
        data: { results: mine, checks, accepted: accepted.length, price: detail.current_price, bid_count: detail.bid_count },
      });
    }
    return rows;
  } finally {
    for (const h of held) await h.stop().catch(() => undefined);
    await stop();
  }
}

// ---------------------------------------------------------------- B2 on several nodes

export async function b2nodes(ctx: BenchCtx): Promise<Row[]> {
  const { watchers, rate, seconds } = ctx.sizes.b2;
  const { all, stop } = await setups(ctx, 'b2n', 2);
  try {
    const runs = new Map<string, WatchResult[]>(all.map((s) => [s.key, []]));
    const ids = new Map<string, Awaited<ReturnType<typeof loginAll>>>();
    for (const s of all) ids.set(s.key, await loginAll(origin(s), s.seed.bidders.map((b) => b.email), BENCH_PASSWORD));
    for (let r = 0; r < ctx.sizes.rounds; r++) {
      for (const s of all) {
        const d = await getJson<{ current_price: number }>(`${origin(s)}/api/auction/${s.seed.hotAuctionId}/`);
        const cfg: WatchConfig = { mode: 'latency', base: origin(s), bases: bases(s), origin: origin(s), auctionId: s.seed.hotAuctionId, watchers, rate, seconds, identities: ids.get(s.key), startPrice: d.current_price };
        runs.get(s.key)!.push(await runLoad<WatchResult>('watchers.ts', cfg));
      }
      ctx.log(`B2 nodes round ${r + 1}: p99 ${all.map((s) => `${s.key} ${fmt(runs.get(s.key)![r].p99)}`).join(' / ')} ms`);
    }
    const sqP99 = median(runs.get('sqlite')!.map((r) => r.p99));
    return all
      .filter((s) => s.key !== 'sqlite')
      .map((s) => {
        const rs = runs.get(s.key)!;
        const p99 = median(rs.map((r) => r.p99));
        const delivered = Math.min(...rs.map((r) => r.delivered));
        // A 4xx is a bid overtaken by the next one (the open loop sends each 10 above the last; under load two
        // are in flight and the higher may commit first): refused by the rules, not lost. Errors are 5xx/network.
        const refused = rs.reduce((n, r) => n + r.refused, 0);
        const errors = rs.reduce((n, r) => n + r.errors, 0);
        return {
          id: s.key === 'pg1' ? 'B2pg' : 'B2x2',
          what: `send→screen, ${watchers} watchers, ${rate} bids/s for ${seconds} s: ${s.name}${s.nodes.length > 1 ? ' (watchers split, bids sent to both)' : ''}`,
          subject: `p99 ${fmt(p99)} ms (p50 ${fmt(median(rs.map((r) => r.p50)))}), ${fmt(delivered * 100, 2)} % delivered`,
          baseline: `p99 ${fmt(sqP99)} ms SQLite node`,
          ratio: `${fmt(p99 / sqP99, 2)}×`,
          goal: 'p99 ≤ 50 ms; 100 % delivered',
          pass: p99 <= 50 && delivered === 1 && errors === 0,
          notes: [
            `${s.name}: p99 per round (ms) ${rs.map((r) => fmt(r.p99)).join(', ')}; SQLite node ${runs.get('sqlite')!.map((r) => fmt(r.p99)).join(', ')}`,
            `${s.name}: bids refused (overtaken by a higher one) ${refused}, errors ${errors}; events received ${rs.reduce((n, r) => n + r.received, 0)} of ${rs.reduce((n, r) => n + r.expected, 0)}`,
          ],
          data: { runs: rs },
        };
      });
  } finally {
    await stop();
  }
}

// ---------------------------------------------------------------- B3 on PostgreSQL

/** B3's list rows over a PostgreSQL database seeded to `auctions` (100,000 in --full; fewer in quick, said in the row). */
export async function b3pg(ctx: BenchCtx, auctions: number): Promise<Row[]> {
  const db = await createBenchDatabase('b3pg');
  const dir = () => {
    const d = freshDataDir('b3pg');
    ctx.cleanup.push(d);
    return d;
  };
  try {
    const seed = await seedBench('', { auctions, bidders: 1, databaseUrl: db.url });
    ctx.log(`B3pg: seeded ${auctions} auctions into PostgreSQL in ${seed.ms} ms`);
    const { rows } = await b3(
      ctx,
      { dir: dir(), env: { DATABASE_URL: db.url, SESSION_SECRET: SECRET } },
      { id: 'B3pg', auctions, label: `on PostgreSQL${auctions < 100_000 ? ' (quick size, not the 100,000 of the goal)' : ''}`, goal: 'p95 ≤ 15 ms' },
    );
    return rows;
  } finally {
    await db.drop().catch((e) => ctx.log(`dropping the bench database failed: ${(e as Error).message}`));
  }
}
