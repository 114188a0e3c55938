/**
 * Where B2's tail comes from: `npx tsx scripts/bench/b2-tail.ts [rounds=5] [watchers=1000] [seconds=10]` runs
 * B2's load against the dist server and bare socket.io, interleaved, and for each run prints the p99 and the
 * slowest bids: when each was sent (ms into the run), its HTTP answer, its first and its last watcher's arrival.
 * A slow bid whose first arrival is late was held before its broadcast began (the bid's own request, a timer, a
 * GC); one whose first arrival is on time but whose last is late spread (the broadcast, or the load generator
 * reading it). BENCH_SERVER_ENTRY picks another build; B2_TAIL_FLAGS (space-separated, '' for none) replaces
 * npm start's Node flags for the server. B2_TAIL_HELD=1 also times each bid inside both servers
 * (lib/held-preload.mjs: its arrival to the broadcast's first write, the broadcast's first to last write, the
 * rest to the answer, the writes and the GC pauses inside the held time and the spread) and prints the medians
 * and 90th percentiles of all rounds at the end: of all bids, of each round's first five (sent right after the
 * joins) and of the rest.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fs from 'node:fs';
import type { WatchConfig, WatchResult } from './loadgen/watchers';
import { BENCH_PASSWORD, seedBench } from './seed-100k';
import { tempDir } from '../lib/harness/ports';
import { getJson, loginAll } from './lib/client';
import { BENCH_DIR, START, runLoad, startBaseline, startServer } from './lib/proc';
import { fmt, median } from './lib/stats';

type PerBid = [number, number, number, number];

function describe(name: string, r: WatchResult): string {
  const bids = r.perBid ?? [];
  const slowest = [...bids].sort((a, b) => b[3] - a[3]).slice(0, 5);
  const first = median(bids.map((b) => b[2]));
  const spread = median(bids.map((b) => b[3] - b[2]));
  const http = median(bids.map((b) => b[1]));
  const show = (b: PerBid) => `@${fmt(b[0], 0)} http ${fmt(b[1])} first ${fmt(b[2])} last ${fmt(b[3])}`;
  return `  ${name}: p50 ${fmt(r.p50)} p99 ${fmt(r.p99)} max ${fmt(r.max)}; median http ${fmt(http)} first ${fmt(first)} spread ${fmt(spread)}\n    slowest: ${slowest.map(show).join(' | ')}`;
}

/** Per statement text: count, total and median ms, slowest first by total. */
function sqlSummary(stderr: string): string {
  const by = new Map<string, number[]>();
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('{"bench_sql"')) continue;
    const { bench_sql: ms, sql } = JSON.parse(line) as { bench_sql: number; sql: string };
    by.set(sql, [...(by.get(sql) ?? []), ms]);
  }
  return [...by.entries()]
    .map(([sql, ms]) => ({ sql, n: ms.length, total: ms.reduce((a, b) => a + b, 0), med: median(ms) }))
    .sort((a, b) => b.total - a.total)
    .slice(0, 15)
    .map((s) => `  ${s.n}× total ${fmt(s.total)} ms, median ${fmt(s.med, 3)} ms: ${s.sql.slice(0, 220)}`)
    .join('\n');
}

type Quantiles = { p50: number; p90: number };
interface HeldPart {
  bids: number;
  held: Quantiles;
  spread: Quantiles;
  answer: Quantiles;
  writes: Quantiles;
  gcHeld: Quantiles;
  gcSpread: Quantiles;
}
interface Held {
  server: string;
  all: HeldPart;
  early: HeldPart | null;
  later: HeldPart;
  /** Every GC pause of the server's run, by kind: count, total and p50/p90 ms. */
  gc?: Record<string, Quantiles & { n: number; totalMs: number }>;
}

/** lib/held-preload.mjs's lines, one per server: all bids, then a round's first five apart from the rest. */
function heldSummary(text: string): string {
  const pair = (q: Quantiles) => `${fmt(q.p50, 2)}/${fmt(q.p90, 2)}`;
  const part = (label: string, h: HeldPart) =>
    `    ${label}: ${h.bids} bids; held ${pair(h.held)} (GC ${pair(h.gcHeld)}), spread ${pair(h.spread)} (GC ${pair(h.gcSpread)}), answer ${pair(h.answer)}, writes ${pair(h.writes)}`;
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Held)
    .map((h) =>
      [
        `  ${h.server.includes('bare-io') ? 'bare' : 'aukcije'}:`,
        part('all', h.all),
        ...(h.early ? [part("each round's first 5", h.early)] : []),
        part('the rest', h.later),
        `    GC pauses: ${Object.entries(h.gc ?? {})
          .map(([kind, g]) => `${kind} ${g.n}× total ${fmt(g.totalMs, 0)} ms (p50/p90 ${pair(g)})`)
          .join(', ')}`,
      ].join('\n'),
    )
    .join('\n');
}

async function main() {
  const rounds = Number(process.argv[2] ?? 5);
  const watchers = Number(process.argv[3] ?? 1000);
  const seconds = Number(process.argv[4] ?? 10);
  const rate = Number(process.argv[5] ?? 20);
  const load = () => fs.readFileSync('/proc/loadavg', 'utf8').trim();
  const dir = tempDir('b2-tail-');
  const seed = await seedBench(dir, { auctions: 10, bidders: 2 });
  const flags = process.env.B2_TAIL_FLAGS;
  // B2_TAIL_SQL=<ms>: the server logs every statement slower than that (BENCH_SQL_LOG); a summary is printed.
  const sqlMs = process.env.B2_TAIL_SQL;
  const env: Record<string, string> = sqlMs ? { BENCH_SQL_LOG: '1', BENCH_SQL_LOG_MS: sqlMs } : {};
  const heldOut = process.env.B2_TAIL_HELD === '1' ? path.join(dir, 'held.jsonl') : null;
  const preload = heldOut ? ['--import', pathToFileURL(path.join(BENCH_DIR, 'lib/held-preload.mjs')).href] : [];
  if (heldOut) env.HELD_OUT = heldOut;
  const nodeFlags = [...(flags === undefined ? START.nodeFlags : flags.split(' ').filter(Boolean)), ...preload];
  const server = await startServer({ dataDir: dir, source: false, env, nodeFlags });
  const bareOptions = [process.env.B2_TAIL_BARE_NODE_OPTIONS, ...preload].filter(Boolean).join(' ');
  const bare = await startBaseline('bare-io', undefined, { ...(bareOptions && { NODE_OPTIONS: bareOptions }), ...(heldOut && { HELD_OUT: heldOut }) });
  const ratios: number[] = [];
  try {
    const ids = await loginAll(server.url, seed.bidders.map((b) => b.email), BENCH_PASSWORD);
    for (let r = 0; r < rounds; r++) {
      const bareRun = await runLoad<WatchResult>('watchers.ts', { mode: 'latency', base: bare.url, auctionId: 1, watchers, rate, seconds, bidPath: '/bid', startPrice: 1000 * (r + 1) } satisfies WatchConfig);
      const d = await getJson<{ current_price: number }>(`${server.url}/api/auction/${seed.hotAuctionId}/`);
      const subj = await runLoad<WatchResult>('watchers.ts', { mode: 'latency', base: server.url, auctionId: seed.hotAuctionId, watchers, rate, seconds, identities: ids, startPrice: d.current_price } satisfies WatchConfig);
      ratios.push(subj.p99 / bareRun.p99);
      console.log(`round ${r + 1}: ratio ${fmt(subj.p99 / bareRun.p99, 2)}; load ${load()}\n${describe('bare', bareRun)}\n${describe('aukcije', subj)}`);
    }
    if (sqlMs) console.log(sqlSummary(server.stderr()));
  } finally {
    await Promise.all([server.stop(), bare.stop()]);
    if (heldOut && fs.existsSync(heldOut)) console.log(`inside the servers (ms, p50/p90 per bid):\n${heldSummary(fs.readFileSync(heldOut, 'utf8'))}`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`median ratio ${fmt(median(ratios), 2)} (${ratios.map((x) => fmt(x, 2)).join(', ')})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
