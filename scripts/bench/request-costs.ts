/**
 * Server CPU per request kind, for B1auto's mix (docs/performance.md, "Issue 14"): `npx tsx
 * scripts/bench/request-costs.ts` (from the build: run `npm run build` first). One server on a seeded temporary
 * DATA_DIR, 10 watchers on each busy auction, 8 (or 4) connections per kind; the server's CPU time is read from
 * /proc before and after each kind, divided by its requests. Two rounds: the first warms the server up.
 * With `--pg` the server runs on a new PostgreSQL database and a Redis prefix (as in the several-nodes rows), and
 * the CPU of every PostgreSQL and Redis process is counted too (other tenants of those services add to it).
 * With `--refused-only=N` only the refused bid (B1's ~95 %) is measured, 6,000 per round, for N rounds (A B A B
 * comparisons of one build against another: docs/performance.md, "B1 — the session fast path").
 */
import fs from 'node:fs';
import { seedBench, BENCH_PASSWORD } from './seed-100k';
import { tempDir } from '../lib/harness/ports';
import { startServer } from './lib/proc';
import { benchRedisPrefix, createBenchDatabase } from './lib/cluster';
import { holdSockets } from './lib/benchmarks';
import { loginAll, getJson } from './lib/client';
import type { Identity } from './loadgen/http-load';

const cpuMs = (pid: number) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * (1000 / 100);
};

/** CPU time of every process whose name starts with `name` (PostgreSQL's backends, redis-server), in ms. */
const cpuOfAll = (name: string) => {
  let ms = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1).startsWith(name)) ms += cpuMs(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return ms;
};

async function call(base: string, id: Identity, method: string, p: string, body?: unknown) {
  const res = await fetch(base + p, {
    method,
    headers: { cookie: id.cookie, 'x-csrftoken': id.csrf, origin: base, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

async function main() {
  const pg = process.argv.includes('--pg');
  const dir = tempDir('request-costs-');
  const db = pg ? await createBenchDatabase('costs') : null;
  const redis = pg ? await benchRedisPrefix('costs') : null;
  const seed = await seedBench(dir, { auctions: 30, bidders: 20, databaseUrl: db?.url });
  const env: Record<string, string> = db && redis ? { DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, SESSION_SECRET: 'request-costs-secret-0123456789' } : {};
  const server = await startServer({ dataDir: dir, source: false, env });
  const base = server.url;
  const ids = await loginAll(base, seed.bidders.map((b) => b.email), BENCH_PASSWORD);
  const A = seed.hotAuctionId;
  const held = await Promise.all([A, A + 1, A + 2, A + 3].map((id) => holdSockets(base, 10, id)));
  const price = async (id: number) => (await getJson<{ current_price: number }>(`${base}/api/auction/${id}/`)).current_price;
  const measure = async (label: string, n: number, conc: number, fn: (i: number, w: number) => Promise<unknown>) => {
    const c0 = cpuMs(server.pid);
    const p0 = pg ? cpuOfAll('postgres') : 0;
    const r0 = pg ? cpuOfAll('redis-server') : 0;
    let next = 0;
    await Promise.all(Array.from({ length: conc }, async (_, w) => { while (next < n) await fn(next++, w); }));
    const cpu = cpuMs(server.pid) - c0;
    const each = (ms: number) => `${((ms / n) * 1000).toFixed(0)} µs`;
    const extra = pg ? `; PostgreSQL ${each(cpuOfAll('postgres') - p0)}, Redis ${each(cpuOfAll('redis-server') - r0)} each` : '';
    console.log(`${label}: ${n} requests, server CPU ${cpu} ms = ${each(cpu)} each${extra}`);
  };
  const refusedOnly = Number(process.argv.find((a) => a.startsWith('--refused-only='))?.split('=')[1] ?? 0);
  try {
    for (let round = 1; round <= refusedOnly; round++) {
      await measure(`round ${round}: bid refused too low`, 6000, 8, (_i, w) => call(base, ids[w]!, 'POST', '/api/bids/', { auction_item_id: A, amount: 1 }));
    }
    for (let round = 1; round <= (refusedOnly ? 0 : 2); round++) {
      console.log(`round ${round}${round === 1 ? ' (warm-up)' : ''}`);
      await measure('bid refused too low (before the transaction)', 4000, 8, (_i, w) => call(base, ids[w]!, 'POST', '/api/bids/', { auction_item_id: A, amount: 1 }));
      await measure('maximum refused too low', 3000, 8, (_i, w) => call(base, ids[w]!, 'PUT', `/api/auctions/${A}/auto-bid/`, { max_amount: 11 }));
      await measure('re-read of the detail', 3000, 8, (_i, w) => call(base, ids[w]!, 'GET', `/api/auction/${A}/`));
      // Two bidders per auction take turns, each beating the other's maximum: two rows per request.
      const known: Record<number, number> = {};
      await measure('maximum accepted, beating another', 1600, 3, async (i, w) => {
        const auction = A + 1 + w;
        known[auction] ??= await price(auction);
        const r = await call(base, ids[8 + w * 2 + (i % 2)]!, 'PUT', `/api/auctions/${auction}/auto-bid/`, { max_amount: known[auction] + 200 });
        if (typeof r.json.current_price === 'number') known[auction] = r.json.current_price;
      });
      await measure('manual bid accepted (no maxima)', 1600, 4, async (_i, w) => {
        const auction = A + 10 + w;
        known[auction] ??= await price(auction);
        const r = await call(base, ids[w]!, 'POST', '/api/bids/', { auction_item_id: auction, amount: known[auction] + 10 });
        known[auction] = typeof r.json.current_price === 'number' ? r.json.current_price : known[auction] + 10;
      });
    }
  } finally {
    for (const h of held) await h.stop();
    await server.stop();
    await db?.drop();
    await redis?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
void main();
