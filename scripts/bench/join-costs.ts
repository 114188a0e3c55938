/**
 * Server CPU per visitor socket that connects and joins one auction (B9's connect+join, issue 30): `npx tsx
 * scripts/bench/join-costs.ts [sockets=5000] [rounds=3]` (from the build: run `npm run build` first;
 * BENCH_SERVER_ENTRY runs another build). The Aukcije server on a seeded temporary DATA_DIR and the bare socket.io
 * server (baselines/bare-io.mjs), A B A B …: each round connects and joins `sockets` visitors (B9's load
 * generator, 50 at a time), then closes them; the server's CPU time is read from /proc around it. CPU time, unlike
 * B9's wall-clock connect+join, is barely moved by the other work on a shared machine.
 * With a third argument `events` (e.g. 1000): then B2's load on each (that many watchers, 20 bids/s for 10 s)
 * and the server's CPU per bid event (the bid's request and its fan-out, less a connect+join of as many sockets).
 */
import fs from 'node:fs';
import { seedBench } from './seed-100k';
import { tempDir } from '../lib/harness/ports';
import { startBaseline, startServer, type Running } from './lib/proc';
import { cpuMs, round } from './lib/join-round';
import { getJson, loginAll } from './lib/client';
import { runLoad } from './lib/proc';
import type { WatchConfig, WatchResult } from './loadgen/watchers';
import { BENCH_PASSWORD } from './seed-100k';
import { raiseOpenFiles } from './lib/many-watchers';
import { fmt, median } from './lib/stats';

/** Server CPU per bid event of B2's load (the connect+join of its watchers measured apart and taken off). */
async function perEvent(target: Running, cfg: WatchConfig): Promise<{ cpuPerEvent: number; p99: number }> {
  const joins = await round(target, cfg.watchers, cfg.auctionId);
  const cpu0 = cpuMs(target.pid);
  const run = await runLoad<WatchResult>('watchers.ts', cfg);
  return { cpuPerEvent: (cpuMs(target.pid) - cpu0 - joins.cpu) / run.sent, p99: run.p99 };
}

async function events(server: Running, bare: Running, watchers: number, hot: number, ids: Awaited<ReturnType<typeof loginAll>>, rounds: number) {
  const load = { mode: 'latency', watchers, rate: 20, seconds: 10 } as const;
  const b: number[] = [];
  const s: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const bb = await perEvent(bare, { ...load, base: bare.url, auctionId: 1, bidPath: '/bid', startPrice: 1000 * (r + 1) });
    const d = await getJson<{ current_price: number }>(`${server.url}/api/auction/${hot}/`);
    const ss = await perEvent(server, { ...load, base: server.url, auctionId: hot, identities: ids, startPrice: d.current_price });
    b.push(bb.cpuPerEvent);
    s.push(ss.cpuPerEvent);
    console.log(`events round ${r + 1}: CPU per bid event bare ${fmt(bb.cpuPerEvent, 2)} ms / aukcije ${fmt(ss.cpuPerEvent, 2)} ms; p99 bare ${fmt(bb.p99)} / aukcije ${fmt(ss.p99)} ms`);
  }
  console.log(`median CPU per bid event (${watchers} watchers): bare ${fmt(median(b), 2)} ms, aukcije ${fmt(median(s), 2)} ms (${fmt(median(s) / median(b), 2)}×)`);
}

async function main() {
  const sockets = Number(process.argv[2] ?? 5000);
  const rounds = Number(process.argv[3] ?? 3);
  const eventWatchers = Number(process.argv[4] ?? 0);
  console.log(`open files limit ${raiseOpenFiles()}; load ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
  const dir = tempDir('join-costs-');
  const seed = await seedBench(dir, { auctions: 10, bidders: 2 });
  const server = await startServer({ dataDir: dir, source: false });
  const bare = await startBaseline('bare-io');
  const subj: Awaited<ReturnType<typeof round>>[] = [];
  const base: Awaited<ReturnType<typeof round>>[] = [];
  try {
    // A warm-up of each: JIT, the first allocations of the heap.
    await round(bare, 500, 1);
    await round(server, 500, seed.hotAuctionId);
    for (let r = 0; r < rounds; r++) {
      base.push(await round(bare, sockets, 1));
      subj.push(await round(server, sockets, seed.hotAuctionId));
      const [b, s] = [base[r]!, subj[r]!];
      console.log(`round ${r + 1}: CPU per socket bare ${fmt((b.cpu * 1000) / sockets)} µs / aukcije ${fmt((s.cpu * 1000) / sockets)} µs; wall bare ${fmt(b.wall / 1000, 1)} s / aukcije ${fmt(s.wall / 1000, 1)} s; RSS held bare ${fmt(b.rss, 0)} MB / aukcije ${fmt(s.rss, 0)} MB`);
    }
    if (eventWatchers) {
      const ids = await loginAll(server.url, seed.bidders.map((b) => b.email), BENCH_PASSWORD);
      await events(server, bare, eventWatchers, seed.hotAuctionId, ids, rounds);
    }
  } finally {
    await Promise.all([server.stop(), bare.stop()]);
  }
  const per = (xs: { cpu: number }[]) => (median(xs.map((x) => x.cpu)) * 1000) / sockets;
  console.log(`median CPU per connect+join: bare ${fmt(per(base))} µs, aukcije ${fmt(per(subj))} µs (${fmt(per(subj) / per(base), 2)}×); load ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
