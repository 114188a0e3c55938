/**
 * The seven benchmarks of issue 6. Each one starts what it measures on a fresh DATA_DIR, runs baseline
 * and subject interleaved (A B A B …) from a load-generator process on the other core, and returns rows
 * whose figures are medians over the rounds.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { CATEGORY_VALUES } from '@shared/categories';
import type { HttpJob, HttpResult } from '../loadgen/http-load';
import type { WatchConfig, WatchResult } from '../loadgen/watchers';
import { BENCH_PASSWORD, seedBench, type SeedResult } from '../seed-100k';
import { getJson, loginAll } from './client';
import type { Mode, Row, Sizes } from './options';
import { freePort, freshDataDir, LOAD_CPU, pinned, ROOT, rssBytes, runLoad, SERVER_CPU, SERVER_NODE, serverCommand, startBaseline, startServer, type Running } from './proc';
import { fmt, median, sleep } from './stats';

export interface BenchCtx {
  mode: Mode;
  sizes: Sizes;
  /** Run the server from the sources through tsx (smoke without a build). */
  source: boolean;
  log: (msg: string) => void;
  /** Data dirs to remove at the end. */
  cleanup: string[];
}

const pass = (ok: boolean) => ok;

export async function seeded(ctx: BenchCtx, label: string, auctions: number, bidders: number): Promise<{ dir: string; seed: SeedResult }> {
  const dir = freshDataDir(label);
  ctx.cleanup.push(dir);
  const seed = await seedBench(dir, { auctions, bidders });
  ctx.log(`${label}: seeded ${auctions} auctions, ${bidders} bidders in ${seed.ms} ms`);
  return { dir, seed };
}

/** Keeps `n` sockets connected (and joined to `auctionId` when given) from the load core until stopped. */
export async function holdSockets(base: string, n: number, auctionId: number | null): Promise<{ stop: () => Promise<void> }> {
  const cfg: WatchConfig = { mode: 'idle', base, auctionId: auctionId ?? 0, watchers: n, join: auctionId !== null };
  let ready!: () => void;
  const readyP = new Promise<void>((r) => (ready = r));
  let childRef: import('node:child_process').ChildProcess | null = null;
  const done = runLoad<{ connected: number }>('watchers.ts', cfg, {
    onLine: (line, child) => {
      childRef = child;
      if (line.startsWith('READY')) ready();
    },
  });
  await Promise.race([readyP, done.then(() => undefined)]);
  return {
    async stop() {
      (childRef as import('node:child_process').ChildProcess | null)?.stdin?.end();
      await done;
    },
  };
}

// ---------------------------------------------------------------- B1

export async function b1(ctx: BenchCtx): Promise<Row[]> {
  const { bidders, watchers, seconds } = ctx.sizes.b1;
  const { dir, seed } = await seeded(ctx, 'b1', 10, bidders);
  const server = await startServer({ dataDir: dir, source: ctx.source });
  const hello = await startBaseline('hello');
  const sockets = await holdSockets(server.url, watchers, seed.hotAuctionId);
  try {
    const ids = await loginAll(server.url, seed.bidders.map((b) => b.email), BENCH_PASSWORD);
    const jobs: HttpJob[] = [];
    for (let r = 0; r < ctx.sizes.rounds; r++) {
      const common = { method: 'POST' as const, paths: ['/api/bids/'], concurrency: bidders, seconds, identities: ids };
      jobs.push({ ...common, label: 'hello', base: hello.url, bid: { auctionId: 0, startPrice: 1000 } });
      jobs.push({ ...common, label: 'bids', base: server.url, bid: { auctionId: seed.hotAuctionId, startPrice: seed.hotStartPrice } });
    }
    const results = await runLoad<HttpResult[]>('http-load.ts', jobs);
    const subj = results.filter((r) => r.label === 'bids');
    const base = results.filter((r) => r.label === 'hello');
    const accepted = subj.flatMap((r) => r.accepted ?? []);
    const detail = await getJson<{ current_price: number; bid_count: number }>(`${server.url}/api/auction/${seed.hotAuctionId}/`);
    const history = await getJson<{ amount: number }[]>(`${server.url}/api/bids/${seed.hotAuctionId}/`);
    const stepsOk = history.every((b, i) => i === 0 || b.amount >= history[i - 1].amount + 10);
    const maxAccepted = accepted.length ? Math.max(...accepted) : seed.hotStartPrice;
    const errors = subj.reduce((s, r) => s + r.errors + r.timeouts, 0);
    const others = subj.reduce((s, r) => s + Object.entries(r.statuses).filter(([k]) => k !== '201' && k !== '400').reduce((a, [, v]) => a + v, 0), 0);
    const refused = subj.reduce((s, r) => s + (r.statuses['400'] ?? 0), 0);
    const checks = {
      priceIsMaxAccepted: detail.current_price === maxAccepted,
      bidCountIsAccepted: detail.bid_count === accepted.length && history.length === accepted.length,
      stepsAtLeast10: stepsOk,
      noErrors: errors === 0 && others === 0,
    };
    const rps = median(subj.map((r) => r.rps));
    const baseRps = median(base.map((r) => r.rps));
    const ratio = rps / baseRps;
    const checksOk = Object.values(checks).every(Boolean);
    return [
      {
        id: 'B1',
        what: `bids/s, ${bidders} bidders on one auction, ${watchers} watchers`,
        subject: `${fmt(rps, 0)} answers/s (p99 ${fmt(median(subj.map((r) => r.p99)))} ms)`,
        baseline: `${fmt(baseRps, 0)} req/s hello`,
        ratio: `${fmt(ratio, 2)}×`,
        goal: '≥ 3,000/s and ≥ 0.25×; 0 errors; price/bid_count/steps correct',
        pass: pass(rps >= 3000 && ratio >= 0.25 && checksOk),
        notes: [
          `accepted ${accepted.length}, refused (400) ${refused}, other statuses ${others}, errors/timeouts ${errors}`,
          `checks: ${Object.entries(checks)
            .map(([k, v]) => `${k}=${v ? 'ok' : 'FAIL'}`)
            .join(', ')}`,
          `per round subject/baseline req/s: ${subj.map((r, i) => `${fmt(r.rps, 0)}/${fmt(base[i].rps, 0)}`).join(', ')}`,
        ],
        data: { results, checks, accepted: accepted.length, refused, price: detail.current_price, bid_count: detail.bid_count, maxAccepted },
      },
    ];
  } finally {
    await sockets.stop().catch(() => undefined);
    await Promise.all([server.stop(), hello.stop()]);
  }
}

// ---------------------------------------------------------------- B2 + B7

export async function b2b7(ctx: BenchCtx): Promise<Row[]> {
  const { watchers, rate, seconds, rounds } = ctx.sizes.b2;
  const { dir, seed } = await seeded(ctx, 'b2', 10, 2);
  const server = await startServer({ dataDir: dir, source: ctx.source });
  const bare = await startBaseline('bare-io');
  try {
    const ids = await loginAll(server.url, seed.bidders.map((b) => b.email), BENCH_PASSWORD);
    const bareRuns: WatchResult[] = [];
    const subjRuns: WatchResult[] = [];
    const slowRuns: WatchResult[] = [];
    const subjectCfg = async (slowReader: boolean): Promise<WatchConfig> => {
      const d = await getJson<{ current_price: number }>(`${server.url}/api/auction/${seed.hotAuctionId}/`);
      return { mode: 'latency', base: server.url, auctionId: seed.hotAuctionId, watchers, rate, seconds, identities: ids, startPrice: d.current_price, slowReader };
    };
    for (let r = 0; r < rounds; r++) {
      bareRuns.push(await runLoad<WatchResult>('watchers.ts', { mode: 'latency', base: bare.url, auctionId: 1, watchers, rate, seconds, bidPath: '/bid', startPrice: 1000 * (r + 1) } satisfies WatchConfig));
      subjRuns.push(await runLoad<WatchResult>('watchers.ts', await subjectCfg(false)));
      slowRuns.push(await runLoad<WatchResult>('watchers.ts', await subjectCfg(true)));
      ctx.log(`B2/B7 round ${r + 1}: p99 bare ${fmt(bareRuns[r].p99)} / aukcije ${fmt(subjRuns[r].p99)} / with slow reader ${fmt(slowRuns[r].p99)} ms`);
    }
    const p99 = median(subjRuns.map((r) => r.p99));
    const baseP99 = median(bareRuns.map((r) => r.p99));
    const slowP99 = median(slowRuns.map((r) => r.p99));
    const delivered = Math.min(...subjRuns.map((r) => r.delivered));
    const slowDelivered = Math.min(...slowRuns.map((r) => r.delivered));
    const refused = subjRuns.reduce((s, r) => s + r.refused + r.errors, 0);
    const perRound = (rs: WatchResult[]) => rs.map((r) => `${fmt(r.p99)}`).join(', ');
    // Issue 30: the ratio is the median of each round's subject/baseline p99 (the two ran back to back).
    const ratios = subjRuns.map((r, i) => r.p99 / bareRuns[i].p99);
    const ratio = median(ratios);
    return [
      {
        id: 'B2',
        what: `send→screen, ${watchers} watchers, ${rate} bids/s for ${seconds} s`,
        subject: `p99 ${fmt(p99)} ms (p50 ${fmt(median(subjRuns.map((r) => r.p50)))}), ${fmt(delivered * 100, 2)} % delivered`,
        baseline: `p99 ${fmt(baseP99)} ms bare socket.io`,
        ratio: `${fmt(ratio, 2)}× (median of ${rounds} rounds)`,
        goal: 'p99 ≤ 50 ms; median per-round ratio ≤ 1.1× (issue 30); 100 % delivered',
        pass: pass(p99 <= 50 && ratio <= 1.1 && delivered === 1 && refused === 0),
        notes: [
          `p99 per round (ms) subject: ${perRound(subjRuns)}; baseline: ${perRound(bareRuns)}; ratios: ${ratios.map((x) => fmt(x, 2)).join(', ')}; ratio of the medians ${fmt(p99 / baseP99, 2)}×`,
          `bids not accepted / errors: ${refused}; events received ${subjRuns.reduce((s, r) => s + r.received, 0)} of ${subjRuns.reduce((s, r) => s + r.expected, 0)}`,
        ],
        data: { bareRuns, subjRuns },
      },
      {
        id: 'B7',
        what: `one slow reader among ${watchers} watchers`,
        subject: `others' p99 ${fmt(slowP99)} ms, ${fmt(slowDelivered * 100, 2)} % delivered`,
        baseline: `p99 ${fmt(p99)} ms (B2 subject, no slow reader)`,
        ratio: `${fmt(slowP99 / p99, 2)}×`,
        goal: '≤ 1.2×',
        pass: pass(slowP99 <= 1.2 * p99 && slowDelivered === 1),
        notes: [`p99 per round (ms) with slow reader: ${perRound(slowRuns)}`],
        data: { slowRuns },
      },
    ];
  } finally {
    await Promise.all([server.stop(), bare.stop()]);
  }
}

// ---------------------------------------------------------------- B3

export function b3Queries(): { name: string; path: string }[] {
  const cat = CATEGORY_VALUES[3];
  return [
    { name: 'page 1', path: '/api/auctions/?page=1' },
    { name: 'page 50', path: '/api/auctions/?page=50' },
    { name: `category ${cat}`, path: `/api/auctions/?page=1&category=${encodeURIComponent(cat)}` },
    { name: 'search q=sesir', path: '/api/auctions/?page=1&q=sesir' },
    { name: 'sort endDateDesc', path: '/api/auctions/?page=1&sort=endDateDesc' },
    { name: 'sort priceAsc', path: '/api/auctions/?page=1&sort=priceAsc' },
    { name: 'sort priceDesc', path: '/api/auctions/?page=1&sort=priceDesc' },
    // Issue 28: a price range (about 1 % of the auctions) and a city (1 in 6), each in the default end-date order.
    { name: 'price 5,000–6,000', path: '/api/auctions/?page=1&min_price=5000&max_price=6000' },
    { name: 'city Niš', path: `/api/auctions/?page=1&city=${encodeURIComponent('nis')}` },
  ];
}

export interface SqlStat {
  sql: string;
  count: number;
  p50: number;
  max: number;
}

/** Restarts the server with BENCH_SQL_LOG=1 and runs every query `times` times, one at a time. */
async function sqlTimings(ctx: BenchCtx, dir: string, times: number, queries = b3Queries()): Promise<SqlStat[]> {
  const server = await startServer({ dataDir: dir, source: ctx.source, env: { BENCH_SQL_LOG: '1', BENCH_SQL_LOG_MS: '0' } });
  const from = server.stderr().length; // skip the migration check at start
  try {
    // A parameter the lists ignore makes every run a URL of its own: the list cache (issue 30) answers none of them.
    for (const q of queries) for (let i = 0; i < times; i++) await (await fetch(`${server.url}${q.path}&sqlrun=${i}`)).arrayBuffer();
    await sleep(200);
  } finally {
    await server.stop();
  }
  const by = new Map<string, number[]>();
  for (const line of server.stderr().slice(from).split('\n')) {
    if (!line.startsWith('{"bench_sql"')) continue;
    const { bench_sql, sql } = JSON.parse(line) as { bench_sql: number; sql: string };
    if (!by.has(sql)) by.set(sql, []);
    by.get(sql)!.push(bench_sql);
  }
  return [...by]
    .map(([sql, ms]) => ({ sql, count: ms.length, p50: median(ms), max: Math.max(...ms) }))
    .sort((a, b) => b.p50 - a.p50);
}

/** B3 on another database (B3g: grown through the API, scripts/bench/lib/lists-on-grown-db.ts): its row ids, queries, size. */
export interface B3Variant {
  id: string;
  /** Default: B3's own queries. */
  queries?: { name: string; path: string }[];
  /** Default: B3's goal (p95 and req/s against hello). */
  goal?: 'p95 ≤ 15 ms';
  auctions: number;
  /** Words after "list at N auctions", e.g. "grown through the API". */
  label: string;
}

/** Issue 30: every B3 row again with this many concurrent clients (as measured from outside). */
export const B3_CLIENTS = 10;

/** One list query at B3_CLIENTS concurrent clients: p95 and req/s, req/s against hello's at the same concurrency. */
function b3AtTen(name: string, i: number, pick: (label: string) => HttpResult[], auctions: number, variant?: B3Variant): Row {
  const runs = pick(`${name}/c10`);
  const hello = pick('hello/c10');
  const p95 = median(runs.map((r) => r.p95));
  const rps = median(runs.map((r) => r.rps));
  const helloRps = median(hello.map((r) => r.rps));
  const bad = runs.reduce((s, r) => s + r.errors + r.timeouts + Object.entries(r.statuses).filter(([k]) => k !== '200').reduce((a, [, v]) => a + v, 0), 0);
  return {
    id: `${variant ? `${variant.id}-` : 'B3'}${String.fromCharCode(97 + i)}@${B3_CLIENTS}`,
    what: `list at ${fmt(auctions, 0)} auctions${variant ? ` ${variant.label}` : ''}, ${B3_CLIENTS} concurrent clients: ${name}`,
    subject: `p95 ${fmt(p95, 2)} ms, ${fmt(rps, 0)} req/s`,
    baseline: `p95 ${fmt(median(hello.map((r) => r.p95)), 2)} ms, ${fmt(helloRps, 0)} req/s hello at ${B3_CLIENTS}`,
    ratio: `${fmt(rps / helloRps, 2)}×`,
    goal: 'p95 ≤ 15 ms and ≥ 0.4× hello (issue 30)',
    pass: pass(p95 <= 15 && rps / helloRps >= 0.4 && bad === 0),
    notes: bad ? [`${bad} non-200 answers or errors`] : [],
    data: { rps: runs.map((r) => r.rps), helloRps: hello.map((r) => r.rps), p95: runs.map((r) => r.p95) },
  };
}

export async function b3(ctx: BenchCtx, data?: { dir: string; env?: Record<string, string> }, variant?: B3Variant): Promise<{ rows: Row[]; sql: SqlStat[] }> {
  const { seconds, concurrency } = ctx.sizes.b3;
  const auctions = variant?.auctions ?? ctx.sizes.b3.auctions;
  const dir = data?.dir ?? (await seeded(ctx, 'b3', auctions, 1)).dir;
  const server = await startServer({ dataDir: dir, source: ctx.source, env: data?.env });
  const hello = await startBaseline('hello');
  const queries = variant?.queries ?? b3Queries();
  let results: HttpResult[];
  try {
    const jobs: HttpJob[] = [];
    for (let r = 0; r < ctx.sizes.rounds; r++) {
      jobs.push({ label: 'hello/lat', base: hello.url, method: 'GET', paths: ['/hello'], concurrency: 1, seconds });
      for (const q of queries) jobs.push({ label: `${q.name}/lat`, base: server.url, method: 'GET', paths: [q.path], concurrency: 1, seconds });
      jobs.push({ label: 'hello/thr', base: hello.url, method: 'GET', paths: ['/hello'], concurrency, seconds });
      for (const q of queries) jobs.push({ label: `${q.name}/thr`, base: server.url, method: 'GET', paths: [q.path], concurrency, seconds });
      jobs.push({ label: 'hello/c10', base: hello.url, method: 'GET', paths: ['/hello'], concurrency: B3_CLIENTS, seconds });
      for (const q of queries) jobs.push({ label: `${q.name}/c10`, base: server.url, method: 'GET', paths: [q.path], concurrency: B3_CLIENTS, seconds });
    }
    results = await runLoad<HttpResult[]>('http-load.ts', jobs);
  } finally {
    await Promise.all([server.stop(), hello.stop()]);
  }
  const pick = (label: string) => results.filter((r) => r.label === label);
  const helloP95 = median(pick('hello/lat').map((r) => r.p95));
  const helloRps = median(pick('hello/thr').map((r) => r.rps));
  // BENCH_SQL_LOG times SQLite's statements only (server/db/connection.ts).
  const sqlLogged = !data?.env?.DATABASE_URL;
  const sql = sqlLogged ? await sqlTimings(ctx, dir, ctx.mode === 'smoke' ? 2 : 20, queries) : [];
  const rows: Row[] = queries.map((q, i) => {
    const lat = pick(`${q.name}/lat`);
    const thr = pick(`${q.name}/thr`);
    const p95 = median(lat.map((r) => r.p95));
    const rps = median(thr.map((r) => r.rps));
    const bad = [...lat, ...thr].reduce((s, r) => s + r.errors + r.timeouts + Object.entries(r.statuses).filter(([k]) => k !== '200').reduce((a, [, v]) => a + v, 0), 0);
    return {
      id: variant ? `${variant.id}-${String.fromCharCode(97 + i)}` : `B3${String.fromCharCode(97 + i)}`,
      what: `list at ${fmt(auctions, 0)} auctions${variant ? ` ${variant.label}` : ''}: ${q.name}`,
      subject: `p95 ${fmt(p95, 2)} ms, ${fmt(rps, 0)} req/s`,
      baseline: `p95 ${fmt(helloP95, 2)} ms, ${fmt(helloRps, 0)} req/s hello`,
      ratio: `${fmt(rps / helloRps, 2)}×`,
      goal: variant?.goal ?? 'p95 ≤ 15 ms, ≥ 0.3× req/s',
      pass: pass(p95 <= 15 && (variant?.goal !== undefined || rps / helloRps >= 0.3) && bad === 0),
      notes: bad ? [`${bad} non-200 answers or errors`] : [],
    };
  });
  rows.push(...queries.map((q, i) => b3AtTen(q.name, i, pick, auctions, variant)));
  const worst = sql[0];
  if (sqlLogged) rows.push({
    id: `${variant?.id ?? 'B3'} SQL`,
    what: 'slowest SQL statement (median of its runs)',
    subject: worst ? `${fmt(worst.p50, 3)} ms median, ${fmt(worst.max, 3)} ms max` : 'n/a',
    baseline: '—',
    ratio: '—',
    goal: 'no statement over 1 ms',
    pass: worst ? worst.p50 <= 1 : null,
    notes: sql.slice(0, 5).map((s) => `${fmt(s.p50, 3)} ms median / ${fmt(s.max, 3)} max ×${s.count}: ${s.sql.slice(0, 240)}`),
  });
  return { rows, sql };
}

// ---------------------------------------------------------------- B4

async function timeColdStart(source: boolean): Promise<number> {
  const dir = freshDataDir('b4');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/api/user/status/`;
  const [cmd, args] = pinned(SERVER_CPU, SERVER_NODE, serverCommand(source));
  const t0 = performance.now();
  const child = spawn(cmd, args, {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dir, RATE_LIMIT: '0', SEED_DEMO: '0', LOG_LEVEL: 'warn' },
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('server exited during cold start');
      try {
        const res = await fetch(url);
        await res.arrayBuffer();
        if (res.status === 200) return performance.now() - t0;
      } catch {
        // not yet
      }
      if (performance.now() - t0 > 60_000) throw new Error('cold start timeout');
      await sleep(2);
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function timeNodeE0(): Promise<number> {
  const [cmd, args] = pinned(SERVER_CPU, SERVER_NODE, ['-e', '0']);
  const t0 = performance.now();
  const child = spawn(cmd, args, { stdio: 'ignore' });
  await new Promise((r) => child.once('exit', r));
  return performance.now() - t0;
}

export async function b4(ctx: BenchCtx): Promise<Row[]> {
  const subj: number[] = [];
  const base: number[] = [];
  await timeColdStart(ctx.source); // warm the file cache once
  for (let i = 0; i < ctx.sizes.b4.starts; i++) {
    base.push(await timeNodeE0());
    subj.push(await timeColdStart(ctx.source));
  }
  const m = median(subj);
  const b = median(base);
  return [
    {
      id: 'B4',
      what: `cold start → first 200 on /api/user/status/, empty DATA_DIR${ctx.source ? ' (sources via tsx)' : ''}`,
      subject: `${fmt(m, 0)} ms (min ${fmt(Math.min(...subj), 0)}, max ${fmt(Math.max(...subj), 0)})`,
      baseline: `${fmt(b, 0)} ms node -e 0`,
      ratio: `${fmt(m / b, 1)}×`,
      goal: '≤ 600 ms',
      pass: pass(m <= 600),
      notes: [`starts (ms): ${subj.map((v) => fmt(v, 0)).join(', ')}; node -e 0: ${base.map((v) => fmt(v, 0)).join(', ')}`],
    },
  ];
}

// ---------------------------------------------------------------- B5

interface RouteWeight {
  route: string;
  js: number;
  css: number;
  jsGzip: number;
  cssGzip: number;
  /** JS bytes as they came over the wire (Content-Encoding as the server chose it for Chromium). */
  jsSent: number;
  files: string[];
}

/** Issue 21: 130 KiB of gzip -9 JS per route, as tests/bench/first-load.test.ts checks it on the manifest. */
const B5_BUDGET = 130 * 1024;

export async function b5(ctx: BenchCtx): Promise<Row[]> {
  const { dir, seed } = await seeded(ctx, 'b5', 5, 1);
  const server = await startServer({ dataDir: dir, source: false });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  const weights: RouteWeight[] = [];
  try {
    for (const route of ['/aukcije', `/aukcija/${seed.hotAuctionId}`]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const seen = new Map<string, Promise<Buffer | null>>();
      const sent = new Map<string, Promise<number>>();
      page.on('response', (res) => {
        const type = res.request().resourceType();
        if (type !== 'script' && type !== 'stylesheet') return;
        seen.set(res.url(), res.body().catch(() => null));
        sent.set(res.url(), res.request().sizes().then((s) => s.responseBodySize, () => 0));
      });
      await page.goto(server.url + route, { waitUntil: 'networkidle' });
      await sleep(300);
      const w: RouteWeight = { route, js: 0, css: 0, jsGzip: 0, cssGzip: 0, jsSent: 0, files: [] };
      for (const [url, bodyP] of seen) {
        const body = await bodyP;
        if (!body) continue;
        const gz = zlib.gzipSync(body, { level: 9 }).length;
        const isCss = new URL(url).pathname.endsWith('.css');
        if (isCss) {
          w.css += body.length;
          w.cssGzip += gz;
        } else {
          w.js += body.length;
          w.jsGzip += gz;
          w.jsSent += (await sent.get(url)) ?? 0;
        }
        w.files.push(`${new URL(url).pathname} ${fmt(gz / 1000, 1)} kB gz`);
      }
      weights.push(w);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return weights.map((w, i) => ({
    id: `B5${String.fromCharCode(97 + i)}`,
    what: `first visit to ${w.route.replace(/\d+$/, '{id}')}: JS + CSS (gzip -9)`,
    subject: `JS ${fmt(w.jsGzip / 1000, 1)} kB gz (${fmt(w.js / 1000, 0)} kB raw, ${fmt(w.jsSent / 1000, 1)} kB sent), CSS ${fmt(w.cssGzip / 1000, 1)} kB gz`,
    baseline: '—',
    ratio: '—',
    goal: '≤ 130 KiB (133.1 kB) gzip JS',
    pass: pass(w.jsGzip <= B5_BUDGET),
    notes: w.files,
  }));
}

// ---------------------------------------------------------------- B6

export async function b6(ctx: BenchCtx, data?: { dir: string }): Promise<Row[]> {
  const { sockets, auctions } = ctx.sizes.b6;
  const dir = data?.dir ?? (await seeded(ctx, 'b6', auctions, 1)).dir;
  const subj: number[] = [];
  const base: number[] = [];
  for (let r = 0; r < Math.max(1, ctx.sizes.rounds - 1); r++) {
    const bare = await startBaseline('bare-io');
    try {
      const held = await holdSockets(bare.url, sockets, null);
      await sleep(1500);
      base.push(rssBytes(bare.pid));
      await held.stop();
    } finally {
      await bare.stop();
    }
    const server = await startServer({ dataDir: dir, source: ctx.source });
    try {
      for (const q of b3Queries()) await (await fetch(server.url + q.path)).arrayBuffer();
      const held = await holdSockets(server.url, sockets, null);
      await sleep(1500);
      subj.push(rssBytes(server.pid));
      await held.stop();
    } finally {
      await server.stop();
    }
  }
  const m = median(subj) / 1e6;
  const b = median(base) / 1e6;
  return [
    {
      id: 'B6',
      what: `RSS with ${fmt(sockets, 0)} idle sockets, ${fmt(auctions, 0)} auctions`,
      subject: `${fmt(m, 0)} MB`,
      baseline: `${fmt(b, 0)} MB bare socket.io`,
      ratio: `${fmt(m / b, 2)}×`,
      goal: '≤ 250 MB and ≤ 2×',
      pass: pass(m <= 250 && m / b <= 2),
      notes: [`rounds (MB) subject: ${subj.map((v) => fmt(v / 1e6, 0)).join(', ')}; baseline: ${base.map((v) => fmt(v / 1e6, 0)).join(', ')}`],
    },
  ];
}

export { LOAD_CPU, SERVER_CPU };
export type { Running };
