/**
 * Starting the things we measure: the production server (dist/server/index.js) on a fresh DATA_DIR,
 * the baselines, and load-generator children, each pinned to its own core with `taskset` when the
 * machine has more than one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, tempDir } from '../../lib/harness/ports';
import { serverEnv, spawnProcess, startServerProcess, waitForHttp, type ChildProcessHandle } from '../../lib/harness/server-process';

export { freePort };

// Every server the bench starts inherits this environment (or gets serverEnv()'s): stopped with SIGTERM after each
// round, none should wait out the 5 s drain meant for a load balancer (server/lifecycle.ts). Starts are unaffected.
process.env.SHUTDOWN_DRAIN_SECONDS ??= '0';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const BENCH_DIR = path.join(ROOT, 'scripts/bench');
/** Where `npm run bench` writes its tables (git ignores artifacts/). */
export const RESULTS_DIR = path.join(ROOT, 'artifacts/bench');
const DIST_ENTRY = path.join(ROOT, 'dist/server/index.js');

const hasTaskset = process.platform === 'linux' && os.availableParallelism() > 1 && spawnSync('taskset', ['-V']).status === 0;

/** Core of the measured server, and of the load generators (the other core). */
export const SERVER_CPU = 0;
export const LOAD_CPU = os.availableParallelism() > 1 ? 1 : 0;

export function pinned(cpu: number | null, cmd: string, args: string[]): [string, string[]] {
  if (cpu === null || !hasTaskset) return [cmd, args];
  return ['taskset', ['-c', String(cpu), cmd, ...args]];
}

export function pinningNote(): string {
  return hasTaskset ? `server on CPU ${SERVER_CPU}, load generator on CPU ${LOAD_CPU} (taskset)` : 'no pinning (taskset unavailable or 1 CPU)';
}

export function freshDataDir(label: string): string {
  return tempDir(`aukcije-bench-${label}-`);
}

function newestMtime(dir: string): number {
  let newest = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** Whether dist/ is missing or older than server/, shared/, client/ (same rule as `npm start`). */
export function buildState(): 'missing' | 'stale' | 'fresh' {
  const stamp = path.join(ROOT, 'dist/.build-stamp');
  if (!fs.existsSync(DIST_ENTRY) || !fs.existsSync(path.join(ROOT, 'dist/client/index.html')) || !fs.existsSync(stamp)) return 'missing';
  const built = fs.statSync(stamp).mtimeMs;
  const sources = Math.max(...['server', 'shared', 'client'].map((d) => newestMtime(path.join(ROOT, d))));
  return sources > built ? 'stale' : 'fresh';
}

/** `node scripts/build.mjs` when dist is missing (or stale / forced). */
export function ensureBuild(opts: { force?: boolean; rebuildStale?: boolean } = {}): void {
  const state = buildState();
  if (!opts.force && (state === 'fresh' || (state === 'stale' && !opts.rebuildStale))) return;
  console.error(`bench: building (dist ${opts.force ? 'forced' : state}) ...`);
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('build failed');
}

export interface Running {
  url: string;
  port: number;
  child: ChildProcess;
  pid: number;
  stderr: () => string;
  stop(): Promise<void>;
}

/**
 * What `npm start` sets besides the entry, read from package.json's start script
 * (`VAR=value ... node <flags> scripts/start.mjs`): every Aukcije server the bench starts runs with the same
 * node flags and environment as a user's (issue 21's memory settings). BENCH_NO_START_FLAGS=1 leaves them out
 * (the before/after comparison in docs/performance.md).
 */
export const START = startSettings();

export function startSettings(script: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start): { env: Record<string, string>; nodeFlags: string[] } {
  if (process.env.BENCH_NO_START_FLAGS === '1') return { env: {}, nodeFlags: [] };
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  let i = 0;
  for (; i < words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[i]); i++) {
    const eq = words[i].indexOf('=');
    env[words[i].slice(0, eq)] = words[i].slice(eq + 1);
  }
  if (words[i] !== 'node') throw new Error(`package.json start: expected "node" after the variables, got ${JSON.stringify(script)}`);
  const nodeFlags = words.slice(i + 1).filter((w) => w.startsWith('--'));
  return { env, nodeFlags };
}

function startProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv, cpu: number | null): ChildProcessHandle {
  const [c, a] = pinned(cpu, cmd, args);
  return spawnProcess(c, a, { cwd: ROOT, env: { ...process.env, ...env } });
}

function running(url: string, port: number, proc: ChildProcessHandle): Running {
  return { url, port, child: proc.child, pid: proc.child.pid!, stderr: proc.stderr, stop: proc.stop };
}

/** The command that runs the server: the production build, or (smoke tests without a build) the sources via tsx. */
export function serverCommand(source: boolean, nodeFlags: string[] = START.nodeFlags): string[] {
  // BENCH_PROFILE_DIR: every Aukcije server started by the suite writes a CPU profile there (node --cpu-prof).
  const prof = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  return [...nodeFlags, ...prof, ...(source ? ['--import', 'tsx', path.join(ROOT, 'server/index.ts')] : [process.env.BENCH_SERVER_ENTRY ?? DIST_ENTRY])];
}

/**
 * The Node binary for the servers under test and their baselines (B1–B7): `BENCH_SERVER_NODE`, or the one
 * running the suite. With `BENCH_SERVER_ENTRY` (a dist/server/index.js whose node_modules hold addons built
 * for that Node) this compares Node versions of the server alone, with the load generators unchanged
 * (docs/performance.md, Node 24).
 */
export const SERVER_NODE = process.env.BENCH_SERVER_NODE ?? process.execPath;

export interface ServerOpts {
  dataDir: string;
  env?: Record<string, string>;
  /** Run server/index.ts through tsx instead of dist (smoke tests on a checkout without a build). */
  source?: boolean;
  cpu?: number | null;
  /** Node flags instead of npm start's (START.nodeFlags): allocator-ab.ts's before/after variants. */
  nodeFlags?: string[];
}

/** Starts Aukcije (RATE_LIMIT=0, SEED_DEMO=0, LOG_LEVEL=warn) and resolves once /api/user/status/ answers 200. */
export async function startServer(opts: ServerOpts): Promise<Running> {
  const port = await freePort();
  const [cmd, args] = pinned(opts.cpu === undefined ? SERVER_CPU : opts.cpu, SERVER_NODE, serverCommand(!!opts.source, opts.nodeFlags));
  const env = { ...process.env, ...START.env, NODE_ENV: 'production', ...serverEnv(port, opts.dataDir, 'warn'), ...opts.env };
  const server = await startServerProcess(cmd, args, { cwd: ROOT, port, env, timeoutMs: 60_000, pollMs: 20 });
  return running(server.url, port, server);
}

/** Starts scripts/bench/baselines/<name>.mjs (with `env` added) and resolves once GET /hello answers 200. */
export async function startBaseline(name: 'hello' | 'bare-io', cpu: number | null = SERVER_CPU, env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = startProcess(SERVER_NODE, [path.join(BENCH_DIR, 'baselines', `${name}.mjs`)], { ...env, PORT: String(port) }, cpu);
  await waitForHttp(`${url}/hello`, proc, { timeoutMs: 20_000, pollMs: 20 });
  return running(url, port, proc);
}

/** Resident set size of a process in bytes (Linux /proc; falls back to ps). */
export function rssBytes(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux
  }
  const r = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  return Number(r.stdout.trim()) * 1024;
}

/**
 * Runs a load-generator child (scripts/bench/loadgen/<file>.ts through tsx) pinned to the load core,
 * hands it `config` as JSON in argv and resolves with the JSON it prints last on stdout.
 */
export function runLoad<T>(file: string, config: unknown, opts: { onLine?: (line: string, child: ChildProcess) => void } = {}): Promise<T> {
  // The config (identities included) can be larger than argv allows: hand it over in a file.
  const cfgFile = path.join(os.tmpdir(), `aukcije-bench-load-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(cfgFile, JSON.stringify(config));
  const [c, a] = pinned(LOAD_CPU, process.execPath, ['--import', 'tsx', path.join(BENCH_DIR, 'loadgen', file), `@${cfgFile}`]);
  const child = spawn(c, a, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  let buf = '';
  child.stdout!.on('data', (d: string) => {
    out += d;
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      opts.onLine?.(line, child);
    }
  });
  child.stderr!.on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      fs.rmSync(cfgFile, { force: true });
      const last = out.trim().split('\n').filter((l) => l.startsWith('{') || l.startsWith('[')).pop();
      if (code !== 0 || !last) return reject(new Error(`load generator ${file} failed (exit ${code}): ${err.slice(-3000)}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch (e) {
        reject(e as Error);
      }
    });
  });
}
