/**
 * Two builds of the server and bare socket.io, interleaved, for the server CPU per visitor connect+join (issue 30,
 * B9): `npx tsx scripts/bench/join-ab.ts <before dist/server/index.js> <after dist/server/index.js> [sockets=5000]
 * [rounds=6]`. Each round measures the three in a rotating order (so none always runs first after a pause); the
 * summary gives each one's median and minimum CPU per socket (the minimum is the figure the machine's other work
 * inflates least) and the RSS with every socket held. Meant for a shared machine where join-costs.ts's bare ratio
 * swings from round to round: before and after are compared with each other, bare rides along as the yardstick.
 * JOIN_AB_FLAGS_BEFORE / JOIN_AB_FLAGS_AFTER (space-separated Node flags, '' for none) replace npm start's flags
 * for one side, e.g. the same build twice with other GC settings.
 */
import fs from 'node:fs';
import { seedBench } from './seed-100k';
import { tempDir } from '../lib/harness/ports';
import { startBaseline, startServer, type Running } from './lib/proc';
import { round } from './lib/join-round';
import { raiseOpenFiles } from './lib/many-watchers';
import { fmt, median } from './lib/stats';

interface Target {
  name: string;
  running: Running;
  auctionId: number;
  runs: Awaited<ReturnType<typeof round>>[];
}

async function build(name: string, entry: string): Promise<Target> {
  const dir = tempDir(`join-ab-${name}-`);
  const seed = await seedBench(dir, { auctions: 10, bidders: 2 });
  process.env.BENCH_SERVER_ENTRY = entry;
  const flags = process.env[`JOIN_AB_FLAGS_${name.toUpperCase()}`];
  const nodeFlags = flags === undefined ? undefined : flags.split(' ').filter(Boolean);
  return { name, running: await startServer({ dataDir: dir, source: false, nodeFlags }), auctionId: seed.hotAuctionId, runs: [] };
}

function summary(t: Target, sockets: number): string {
  const per = t.runs.map((r) => (r.cpu * 1000) / sockets);
  const user = t.runs.map((r) => (r.user * 1000) / sockets);
  return `${t.name}: CPU per connect+join median ${fmt(median(per))} µs, min ${fmt(Math.min(...per))} µs; user CPU median ${fmt(median(user))} µs, min ${fmt(Math.min(...user))} µs; RSS held median ${fmt(median(t.runs.map((r) => r.rss)), 0)} MB; wall median ${fmt(median(t.runs.map((r) => r.wall)) / 1000, 1)} s`;
}

async function main() {
  const [before, after] = process.argv.slice(2, 4);
  if (!before || !after) throw new Error('usage: join-ab.ts <before entry> <after entry> [sockets] [rounds]');
  const sockets = Number(process.argv[4] ?? 5000);
  const rounds = Number(process.argv[5] ?? 6);
  const load = () => fs.readFileSync('/proc/loadavg', 'utf8').trim();
  console.log(`open files limit ${raiseOpenFiles()}; load ${load()}`);
  const targets = [await build('before', before), await build('after', after), { name: 'bare', running: await startBaseline('bare-io'), auctionId: 1, runs: [] }];
  try {
    for (const t of targets) await round(t.running, 500, t.auctionId);
    for (let r = 0; r < rounds; r++) {
      const order = targets.map((_, i) => targets[(i + r) % targets.length]!);
      for (const t of order) t.runs.push(await round(t.running, sockets, t.auctionId));
      const at = (t: Target) => t.runs[r]!;
      console.log(`round ${r + 1}: ${targets.map((t) => `${t.name} ${fmt((at(t).cpu * 1000) / sockets)} µs (user ${fmt((at(t).user * 1000) / sockets)})`).join(', ')}; load ${load()}`);
    }
  } finally {
    await Promise.all(targets.map((t) => t.running.stop()));
  }
  for (const t of targets) console.log(summary(t, sockets));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
