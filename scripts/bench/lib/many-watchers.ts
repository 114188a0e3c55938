/**
 * B9 (issue 30): 10,000 watchers of one auction on one node, two bidders at 2 bids/s (the same 20,000 frames a
 * second as B2's 1,000 watchers at 20 bids/s), against a bare socket.io server with the same 10,000 sockets, in
 * the same run (A B A B …). Per run: the time until all sockets are connected and joined (the load generator's
 * connect+join, 50 at a time), p99 send→screen, % delivered, and the peak RSS of the server (sampled every
 * 250 ms while the run lasts). `npm run bench -- --only=B9`.
 *
 * 10,000 sockets need ~10,000 descriptors in the server and as many in the load generator: the bench raises its
 * own soft `ulimit -n` to the hard limit (prlimit) before it starts them, and every child inherits it.
 */
import { spawnSync } from 'node:child_process';
import type { WatchConfig, WatchResult } from '../loadgen/watchers';
import { BENCH_PASSWORD } from '../seed-100k';
import { seeded, type BenchCtx } from './benchmarks';
import { getJson, loginAll } from './client';
import type { Row } from './options';
import { rssBytes, runLoad, startBaseline, startServer, type Running } from './proc';
import { fmt, median } from './stats';

/** Raises this process's soft limit of open files to its hard limit (children inherit it); returns the soft limit now. */
export function raiseOpenFiles(): number {
  const limits = () => /NOFILE\s+\S.*?\s(\d+)\s+(\d+)/.exec(spawnSync('prlimit', ['--pid', String(process.pid), '--nofile'], { encoding: 'utf8' }).stdout ?? '');
  const hard = limits()?.[2];
  if (hard) spawnSync('prlimit', ['--pid', String(process.pid), `--nofile=${hard}:${hard}`]);
  return Number(limits()?.[1] ?? NaN);
}

/** Runs one load and samples `target`'s RSS meanwhile: the result and the peak RSS in bytes. */
async function withPeakRss(target: Running, cfg: WatchConfig): Promise<{ run: WatchResult; rss: number }> {
  let rss = rssBytes(target.pid);
  const timer = setInterval(() => (rss = Math.max(rss, rssBytes(target.pid))), 250);
  try {
    return { run: await runLoad<WatchResult>('watchers.ts', cfg), rss };
  } finally {
    clearInterval(timer);
  }
}

const MB = 1024 * 1024;

export async function b9(ctx: BenchCtx): Promise<Row[]> {
  const { watchers, rate, seconds, rounds } = ctx.sizes.b9;
  const limit = raiseOpenFiles();
  ctx.log(`B9: open files limit ${limit}`);
  if (Number.isFinite(limit) && limit < watchers + 1000) throw new Error(`ulimit -n is ${limit}: B9 needs about ${watchers + 1000} (raise the hard limit)`);
  const { dir, seed } = await seeded(ctx, 'b9', 10, 2);
  const server = await startServer({ dataDir: dir, source: ctx.source });
  const bare = await startBaseline('bare-io');
  try {
    const ids = await loginAll(server.url, seed.bidders.map((b) => b.email), BENCH_PASSWORD);
    const bareRuns: { run: WatchResult; rss: number }[] = [];
    const subjRuns: { run: WatchResult; rss: number }[] = [];
    for (let r = 0; r < rounds; r++) {
      bareRuns.push(await withPeakRss(bare, { mode: 'latency', base: bare.url, auctionId: 1, watchers, rate, seconds, bidPath: '/bid', startPrice: 1000 * (r + 1) }));
      const d = await getJson<{ current_price: number }>(`${server.url}/api/auction/${seed.hotAuctionId}/`);
      subjRuns.push(await withPeakRss(server, { mode: 'latency', base: server.url, auctionId: seed.hotAuctionId, watchers, rate, seconds, identities: ids, startPrice: d.current_price }));
      const [b, s] = [bareRuns[r]!.run, subjRuns[r]!.run];
      ctx.log(`B9 round ${r + 1}: p99 bare ${fmt(b.p99)} / aukcije ${fmt(s.p99)} ms; connect+join bare ${fmt(b.connectMs / 1000, 1)} / aukcije ${fmt(s.connectMs / 1000, 1)} s`);
    }
    return b9Rows(ctx, bareRuns, subjRuns);
  } finally {
    await Promise.all([server.stop(), bare.stop()]);
  }
}

function b9Rows(ctx: BenchCtx, bareRuns: { run: WatchResult; rss: number }[], subjRuns: { run: WatchResult; rss: number }[]): Row[] {
  const { watchers, rate, seconds } = ctx.sizes.b9;
  const m = (runs: { run: WatchResult; rss: number }[], f: (x: { run: WatchResult; rss: number }) => number) => median(runs.map(f));
  const p99 = m(subjRuns, (x) => x.run.p99);
  const baseP99 = m(bareRuns, (x) => x.run.p99);
  const conn = m(subjRuns, (x) => x.run.connectMs);
  const baseConn = m(bareRuns, (x) => x.run.connectMs);
  const delivered = Math.min(...subjRuns.map((x) => x.run.delivered));
  const refused = subjRuns.reduce((s, x) => s + x.run.refused + x.run.errors, 0);
  const rss = m(subjRuns, (x) => x.rss);
  const baseRss = m(bareRuns, (x) => x.rss);
  const per = (runs: { run: WatchResult; rss: number }[], f: (x: { run: WatchResult; rss: number }) => string) => runs.map(f).join(', ');
  return [
    {
      id: 'B9',
      what: `send→screen, ${fmt(watchers, 0)} watchers of one auction, ${rate} bids/s from 2 bidders for ${seconds} s`,
      subject: `p99 ${fmt(p99)} ms, ${fmt(delivered * 100, 2)} % delivered; connect+join ${fmt(conn / 1000, 1)} s; RSS ${fmt(rss / MB, 0)} MB`,
      baseline: `p99 ${fmt(baseP99)} ms; connect+join ${fmt(baseConn / 1000, 1)} s; RSS ${fmt(baseRss / MB, 0)} MB bare socket.io`,
      ratio: `p99 ${fmt(p99 / baseP99, 2)}×, connect ${fmt(conn / baseConn, 2)}×, RSS ${fmt(rss / baseRss, 2)}×`,
      goal: 'p99 ≤ 1.1×; all connected and joined within 1.2×; 100 % delivered',
      pass: p99 <= 1.1 * baseP99 && conn <= 1.2 * baseConn && delivered === 1 && refused === 0,
      notes: [
        `per round p99 (ms) subject: ${per(subjRuns, (x) => fmt(x.run.p99))}; baseline: ${per(bareRuns, (x) => fmt(x.run.p99))}`,
        `per round connect+join (s) subject: ${per(subjRuns, (x) => fmt(x.run.connectMs / 1000, 1))}; baseline: ${per(bareRuns, (x) => fmt(x.run.connectMs / 1000, 1))}`,
        `per round peak RSS (MB) subject: ${per(subjRuns, (x) => fmt(x.rss / MB, 0))}; baseline: ${per(bareRuns, (x) => fmt(x.rss / MB, 0))}`,
        `bids not accepted / errors: ${refused}; events received ${subjRuns.reduce((s, x) => s + x.run.received, 0)} of ${subjRuns.reduce((s, x) => s + x.run.expected, 0)}`,
      ],
      data: { bareRuns, subjRuns },
    },
  ];
}
