/** One connect+join round of visitors against a running server, measured from /proc (join-costs.ts, join-ab.ts). */
import fs from 'node:fs';
import { holdSockets } from './benchmarks';
import { rssBytes, type Running } from './proc';

const ticks = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');

/** The CPU time (user + system) a process has used so far, in ms. */
export const cpuMs = (pid: number) => {
  const f = ticks(pid);
  return (Number(f[11]) + Number(f[12])) * (1000 / 100);
};

/**
 * Its user CPU time alone, in ms: the JavaScript's share, which the loopback's network work (system time, charged
 * to whichever process the kernel finds running) moves less on a busy machine.
 */
export const userMs = (pid: number) => Number(ticks(pid)[11]) * (1000 / 100);

/** One connect+join of `sockets` visitors: the server's CPU and user CPU (ms), the wall time (ms) and its RSS (MB) with all of them held. */
export async function round(target: Running, sockets: number, auctionId: number): Promise<{ cpu: number; user: number; wall: number; rss: number }> {
  const cpu0 = cpuMs(target.pid);
  const user0 = userMs(target.pid);
  const t0 = performance.now();
  const held = await holdSockets(target.url, sockets, auctionId);
  const wall = performance.now() - t0;
  const cpu = cpuMs(target.pid) - cpu0;
  const user = userMs(target.pid) - user0;
  const rss = rssBytes(target.pid) / (1024 * 1024);
  await held.stop();
  return { cpu, user, wall, rss };
}

