/**
 * Server CPU per anonymous list read (issue 30, docs/performance.md "B3 at 10 clients"): `npx tsx
 * scripts/bench/list-costs.ts [auctions=20000] [--source]`. One server on a seeded temporary DATA_DIR; for each
 * kind, 10 connections send requests and the server's CPU time (from /proc) is divided by the requests:
 * a visitor's page read the list cache cannot answer (every URL new), the same page from the cache, the cached
 * page gzip-compressed, and a logged-in reader's page (never cached); and Express hello-world's (baselines/hello.mjs)
 * CPU per request, the same way, for a ratio that load on the machine does not skew. Two rounds: the first warms up.
 * `--kind=<word>` runs only the kinds whose label contains it (e.g. `--kind=not` or `--kind=cache,`: one profile each).
 * With `--source` the server runs from the sources through tsx: with BENCH_PROFILE_DIR=<dir> its CPU profile then
 * names our modules (`node scripts/bench/profile-summary.mjs <file>`); the build is one bundle.
 */
import fs from 'node:fs';
import { seedBench, BENCH_PASSWORD } from './seed-100k';
import { tempDir } from '../lib/harness/ports';
import { startBaseline, startServer, type Running } from './lib/proc';
import { loginAll } from './lib/client';

const cpuMs = (pid: number) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * (1000 / 100);
};

async function main() {
  const auctions = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 20_000);
  const source = process.argv.includes('--source');
  const dir = tempDir('list-costs-');
  const seed = await seedBench(dir, { auctions, bidders: 2 });
  const server = await startServer({ dataDir: dir, source });
  const hello = await startBaseline('hello');
  const base = server.url;
  const [id] = await loginAll(base, [seed.bidders[0]!.email], BENCH_PASSWORD);
  const kind = process.argv.find((a) => a.startsWith('--kind='))?.slice(7);
  const measure = async (label: string, n: number, fn: (i: number) => Promise<unknown>, proc: Running = server) => {
    if (kind && !label.includes(kind)) return;
    const c0 = cpuMs(proc.pid);
    const t0 = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 10 }, async () => { while (next < n) await fn(next++); }));
    const cpu = cpuMs(proc.pid) - c0;
    console.log(`${label}: ${n} requests in ${(performance.now() - t0).toFixed(0)} ms, server CPU ${cpu} ms = ${((cpu / n) * 1000).toFixed(0)} µs each`);
  };
  const get = async (p: string, headers: Record<string, string> = {}, at = base) => {
    const res = await fetch(at + p, { headers: { 'accept-encoding': 'identity', ...headers } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
  };
  try {
    for (let round = 1; round <= 2; round++) {
      console.log(`round ${round}${round === 1 ? ' (warm-up)' : ''}`);
      await measure('hello (Express 5 hello-world)', 20_000, () => get('/hello', {}, hello.url), hello);
      await measure('visitor, page 1, not cached (a new URL each time)', 3000, (i) => get(`/api/auctions/?page=1&r${round}=${i}`));
      await measure('visitor, page 1, from the cache', 20_000, () => get('/api/auctions/?page=1'));
      await measure('visitor, page 1, from the cache, gzip', 20_000, () => get('/api/auctions/?page=1', { 'accept-encoding': 'gzip' }));
      await measure('logged in, page 1 (never cached)', 3000, () => get('/api/auctions/?page=1', { cookie: id!.cookie }));
    }
  } finally {
    await Promise.all([server.stop(), hello.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
void main();
