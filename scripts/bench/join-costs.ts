/**
 * Server CPU per visitor socket that connects and joins one auction (B9's connect+join, issue 30): `npx tsx
 * scripts/bench/join-costs.ts [sockets=5000] [rounds=3]` (from the build: run `npm run build` first;
 * BENCH_SERVER_ENTRY runs another build). The Aukcije server on a seeded temporary DATA_DIR and the bare socket.io
 * server (baselines/bare-io.mjs), A B A B …: each round connects and joins `sockets` visitors (B9's load
 * generator, 50 at a time), then closes them; the server's CPU time is read from /proc around it. CPU time, unlike
 * B9's wall-clock connect+join, is barely moved by the other work on a shared machine.
 */
import fs from 'node:fs';
import { seedBench } from './seed-100k';
import { tempDir } from '../lib/harness/ports';
import { startBaseline, startServer, type Running } from './lib/proc';
import { holdSockets } from './lib/benchmarks';
import { raiseOpenFiles } from './lib/many-watchers';
import { fmt, median } from './lib/stats';

const cpuMs = (pid: number) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * (1000 / 100);
};

async function round(target: Running, sockets: number, auctionId: number): Promise<{ cpu: number; wall: number }> {
  const cpu0 = cpuMs(target.pid);
  const t0 = performance.now();
  const held = await holdSockets(target.url, sockets, auctionId);
  const wall = performance.now() - t0;
  const cpu = cpuMs(target.pid) - cpu0;
  await held.stop();
  return { cpu, wall };
}

async function main() {
  const sockets = Number(process.argv[2] ?? 5000);
  const rounds = Number(process.argv[3] ?? 3);
  console.log(`open files limit ${raiseOpenFiles()}; load ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
  const dir = tempDir('join-costs-');
  const seed = await seedBench(dir, { auctions: 10, bidders: 2 });
  const server = await startServer({ dataDir: dir, source: false });
  const bare = await startBaseline('bare-io');
  const subj: { cpu: number; wall: number }[] = [];
  const base: { cpu: number; wall: number }[] = [];
  try {
    // A warm-up of each: JIT, the first allocations of the heap.
    await round(bare, 500, 1);
    await round(server, 500, seed.hotAuctionId);
    for (let r = 0; r < rounds; r++) {
      base.push(await round(bare, sockets, 1));
      subj.push(await round(server, sockets, seed.hotAuctionId));
      const [b, s] = [base[r]!, subj[r]!];
      console.log(`round ${r + 1}: CPU per socket bare ${fmt((b.cpu * 1000) / sockets)} µs / aukcije ${fmt((s.cpu * 1000) / sockets)} µs; wall bare ${fmt(b.wall / 1000, 1)} s / aukcije ${fmt(s.wall / 1000, 1)} s`);
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
