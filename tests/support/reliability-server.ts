/**
 * The real server as a child process (for crash tests): server/index.ts bundled once by esbuild, the way
 * scripts/build.mjs builds dist/server, into node_modules/.cache so that it is never stale and the package
 * imports resolve; started with `node` on a DATA_DIR and killed with SIGKILL.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import type { DbHandle } from '../../server/db/connection';
import { isoAt } from '../../server/lib/time';
import { serverEnv, startServerProcess } from '../../scripts/lib/harness/server-process';

const root = path.resolve(import.meta.dirname, '../..');

/** Bundles server/index.ts to a file of its own (per process and name) and returns its path. */
export async function buildServerBundle(name: string): Promise<string> {
  const outfile = path.join(root, 'node_modules/.cache/aukcije-reliability', `server-${process.pid}-${name}.mjs`);
  await build({
    entryPoints: [path.join(root, 'server/index.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // As the production build (scripts/build.mjs): pure-JS dependencies bundled, native addons and what only a
    // cluster or a metrics scrape loads left in node_modules. The restart time this suite asserts is then the
    // production server's, not that of resolving hundreds of ES module files one by one.
    external: ['better-sqlite3-node20', 'better-sqlite3-node22', 'pg', 'argon2', 'sharp', 'bufferutil', 'utf-8-validate', 'redis', '@socket.io/redis-adapter', 'rate-limit-redis', 'prom-client'],
    // Bundled CommonJS dependencies call require() (node: builtins among them): an ES module has none of its own.
    banner: { js: "import { createRequire as __aukcijeCreateRequire } from 'node:module'; const require = __aukcijeCreateRequire(import.meta.url);" },
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'warning',
  });
  return outfile;
}

export function removeBundle(file: string): void {
  fs.rmSync(file, { force: true });
}

/** utime + stime of a process from /proc (clock ticks of 10 ms on Linux). */
function cpuMsOf(pid: number | undefined): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export interface ChildServer {
  proc: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the first 200 of GET /api/user/status/. */
  readyMs: number;
  /** CPU milliseconds (user + system, all threads) the process had used by then; null off Linux. */
  readyCpuMs: number | null;
  /** 1-minute load average per CPU at that moment (above 1: the machine was oversubscribed). */
  loadPerCpu: number;
  /** What the process wrote to stderr (for failure messages). */
  stderr(): string;
  /** SIGKILL, resolved once the process is gone. */
  kill9(): Promise<void>;
}

/** Spawns `node bundle` on `dataDir`/`port` and resolves when it answers GET /api/user/status/ with 200. */
export async function spawnServer(bundle: string, dataDir: string, port: number, env: Record<string, string> = {}): Promise<ChildServer> {
  const t0 = performance.now();
  const server = await startServerProcess(process.execPath, [bundle], {
    cwd: root,
    port,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      ...serverEnv(port, dataDir, 'error'),
      SESSION_SECRET: 'crash-test-secret-crash-test-secret',
      CLIENT_DIR: path.join(dataDir, 'no-client'),
      ...env,
    },
    timeoutMs: 15_000,
    pollMs: 5,
    tryTimeoutMs: 500,
  });
  return {
    proc: server.child,
    url: server.url,
    readyMs: performance.now() - t0,
    readyCpuMs: cpuMsOf(server.pid),
    loadPerCpu: os.loadavg()[0] / os.availableParallelism(),
    stderr: server.stderr,
    kill9: server.kill9,
  };
}

/** A verified user inserted straight into the file (the password hash given). */
export async function insertUser(h: DbHandle, name: string, hash: string) {
  return h.db
    .insertInto('users')
    .values({
      first_name: name,
      email: `${name.toLowerCase().replace(/\s+/g, '.')}@example.com`,
      phone_number: '0641234567',
      city: 'Beograd',
      password_hash: hash,
      google_sub: null,
      verified_at: isoAt(Date.now()),
      is_admin: 0,
      blocked_at: null,
      created_at: isoAt(Date.now()),
    })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
}

/** An open auction inserted straight into the file, optionally with one bid (then its leader). */
export async function insertAuction(
  h: DbHandle,
  sellerId: number,
  title: string,
  endMs: number,
  bid?: { bidder: number; amount: number },
  startingPrice = 1000,
) {
  const end = isoAt(endMs);
  const a = await h.db
    .insertInto('auctions')
    .values({
      seller_id: sellerId,
      title,
      description: `Opis: ${title}`,
      category: 'other',
      city: 'Beograd',
      phone_number: '0641234567',
      starting_price: startingPrice,
      current_price: bid ? bid.amount : startingPrice,
      bid_count: bid ? 1 : 0,
      end_date: end,
      original_end_date: end,
      status: 'active',
      winner_id: null,
      search_text: title.toLowerCase(),
      created_at: isoAt(Date.now()),
      closed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (bid) await h.db.insertInto('bids').values({ auction_id: a.id, bidder_id: bid.bidder, amount: bid.amount, created_at: isoAt(Date.now()) }).execute();
  return a.id;
}
