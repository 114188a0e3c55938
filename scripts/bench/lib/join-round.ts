/** One connect+join round of visitors against a running server, measured from /proc (join-costs.ts, join-ab.ts). */
import fs from 'node:fs';
import { holdSockets } from './benchmarks';
import { rssBytes, type Running } from './proc';

/** The CPU time (user + system) a process has used so far, in ms. */
export const cpuMs = (pid: number) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * (1000 / 100);
};

/** One connect+join of `sockets` visitors: the server's CPU (ms), the wall time (ms) and its RSS (MB) with all of them held. */
export async function round(target: Running, sockets: number, auctionId: number): Promise<{ cpu: number; wall: number; rss: number }> {
  const cpu0 = cpuMs(target.pid);
  const t0 = performance.now();
  const held = await holdSockets(target.url, sockets, auctionId);
  const wall = performance.now() - t0;
  const cpu = cpuMs(target.pid) - cpu0;
  const rss = rssBytes(target.pid) / (1024 * 1024);
  await held.stop();
  return { cpu, wall, rss };
}

