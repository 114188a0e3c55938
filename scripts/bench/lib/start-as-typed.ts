/**
 * B4 as users run it: `npm start` (npm included, dist already built, empty DATA_DIR, SEED_DEMO=0) from spawn
 * to the first 200 on GET /api/user/status/, next to what it is made of, measured interleaved in the same run:
 * `node -e 0`, `npm --version` (npm's own start) and `node dist/server/index.js` alone (the B4 row's command).
 *
 * Each command gets a user's environment: the suite's own npm_* variables (set when the suite runs under
 * `npm run bench`) are dropped, and only PORT, DATA_DIR and SEED_DEMO=0 are added. The whole process group
 * (npm → sh → node) is stopped after each start.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { BenchCtx } from './benchmarks';
import type { Row } from './options';
import { freePort, freshDataDir, pinned, ROOT, SERVER_CPU, type Running } from './proc';
import { fmt, median, sleep } from './stats';

/** The environment of a user's shell: the suite's npm_* variables left out. */
function userEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== 'INIT_CWD' && k !== 'NODE_ENV') env[k] = v;
  return { ...env, ...extra };
}

/** One GET; resolves with the status, or 0 when nothing listens yet. */
function probe(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/user/status/', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
  });
}

/** Stops the whole process group started with `detached: true` and waits for its leader. */
async function killGroup(child: import('node:child_process').ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }, 5000);
  await exited;
  clearTimeout(timer);
  // npm may exit before its child node has finished shutting down: give the group a moment.
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(-child.pid!, 0);
    } catch {
      return;
    }
    await sleep(10);
  }
}

/**
 * CPU time (user + system, ms) used so far by the processes of group `pgid`, their reaped children
 * included (Linux /proc; NaN elsewhere). On a busy machine this moves less than wall time.
 */
export function groupCpuMs(pgid: number): number {
  if (process.platform !== 'linux') return NaN;
  const tick = 10; // USER_HZ is 100 on Linux
  let ticks = 0;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name "(…)": state ppid pgrp … utime(14) stime(15) cutime(16) cstime(17).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(f[2]) !== pgid) continue;
    ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  }
  return ticks * tick;
}

/** Spawn → first 200 on /api/user/status/ for `cmd args`, on a fresh empty DATA_DIR: wall ms and CPU ms. */
export async function timeToFirst200(cmd: string, args: string[], cwd = ROOT): Promise<{ ms: number; cpuMs: number }> {
  const dir = freshDataDir('b4npm');
  const port = await freePort();
  const [c, a] = pinned(SERVER_CPU, cmd, args);
  const t0 = performance.now();
  const child = spawn(c, a, {
    cwd,
    stdio: 'ignore',
    detached: true,
    env: userEnv({ PORT: String(port), DATA_DIR: dir, SEED_DEMO: '0' }),
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited (${child.exitCode}) before answering`);
      if ((await probe(port)) === 200) return { ms: performance.now() - t0, cpuMs: groupCpuMs(child.pid!) };
      if (performance.now() - t0 > 60_000) throw new Error('start timeout');
      await sleep(1);
    }
  } finally {
    await killGroup(child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The processes of group `pgid` (Linux /proc): pid, parent pid and command line. */
function groupProcesses(pgid: number): { pid: number; ppid: number; cmd: string }[] {
  const out: { pid: number; ppid: number; cmd: string }[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[2]) !== pgid) continue;
      out.push({ pid: Number(name), ppid: Number(f[1]), cmd: fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim() });
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/** A server started as `npm start`: `pid` is the process that serves (start.mjs), `serverPids()` every process below npm. */
export interface TypedStart extends Running {
  /** The processes `npm start` left running below npm itself (its shell, if it stayed, and every node). */
  serverPids(): number[];
  /** npm's own process. */
  npmPid: number;
}

/**
 * `npm start` as a user types it (cwd = the project, a user's environment plus `env`), pinned to the server
 * core; resolves once GET /api/user/status/ answers 200. Linux only (the process tree is read from /proc).
 */
export async function startAsTyped(dataDir: string, env: Record<string, string> = {}): Promise<TypedStart> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const [c, a] = pinned(SERVER_CPU, npm, ['start']);
  const child = spawn(c, a, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
    env: userEnv({ PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir, SEED_DEMO: '0', RATE_LIMIT: '0', LOG_LEVEL: 'warn', ...env }),
  });
  let err = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => (err = (err + d).slice(-200_000)));
  const t0 = performance.now();
  while ((await probe(port)) !== 200) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}) before answering\n${err.slice(-2000)}`);
    if (performance.now() - t0 > 60_000) throw new Error(`npm start: no 200 within 60 s\n${err.slice(-2000)}`);
    await sleep(20);
  }
  const below = () => groupProcesses(child.pid!).filter((p) => p.pid !== child.pid);
  // The node that serves, not the shell npm runs the script line in (`sh -c node scripts/start.mjs`).
  const server = below().find((p) => /(^|\/)node(\s|$)/.test(p.cmd.split(' ')[0] + ' ') && (p.cmd.includes('scripts/start.mjs') || p.cmd.includes('dist/server/')));
  if (!server) throw new Error(`npm start: no server process found below npm (${JSON.stringify(below())})`);
  return {
    url,
    port,
    child,
    pid: server.pid,
    npmPid: child.pid!,
    serverPids: () => below().map((p) => p.pid),
    stderr: () => err,
    stop: () => killGroup(child),
  };
}

/** Spawn → exit; ms. */
export async function timeToExit(cmd: string, args: string[]): Promise<number> {
  const [c, a] = pinned(SERVER_CPU, cmd, args);
  const t0 = performance.now();
  const child = spawn(c, a, { cwd: ROOT, stdio: 'ignore', env: userEnv({}) });
  await new Promise((r) => child.once('exit', r));
  return performance.now() - t0;
}

export interface StartFigures {
  nodeE0: number[];
  npmVersion: number[];
  nodeServer: number[];
  npmStart: number[];
  /** CPU ms of the process group up to the first 200. */
  nodeServerCpu: number[];
  npmStartCpu: number[];
}

/**
 * `starts` interleaved rounds of the four commands, after one unmeasured round (warms the file cache and
 * writes the server's code cache). With several project roots (a checkout before a change, one after), each
 * round runs the four commands in each root in turn.
 */
export async function measureStarts(starts: number, log: (m: string) => void = () => undefined, roots: string[] = [ROOT]): Promise<StartFigures[]> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const node = process.execPath;
  const all = roots.map((): StartFigures => ({ nodeE0: [], npmVersion: [], nodeServer: [], npmStart: [], nodeServerCpu: [], npmStartCpu: [] }));
  for (let i = -1; i < starts; i++) {
    for (const [k, root] of roots.entries()) {
      const f = all[k];
      const e0 = await timeToExit(node, ['-e', '0']);
      const v = await timeToExit(npm, ['--version']);
      const s = await timeToFirst200(node, [path.join(root, 'dist/server/index.js')], root);
      const n = await timeToFirst200(npm, ['start'], root);
      if (i < 0) continue;
      f.nodeE0.push(e0);
      f.npmVersion.push(v);
      f.nodeServer.push(s.ms);
      f.npmStart.push(n.ms);
      f.nodeServerCpu.push(s.cpuMs);
      f.npmStartCpu.push(n.cpuMs);
      const where = roots.length > 1 ? ` ${root}` : '';
      log(`B4 npm round ${i + 1}${where}: node -e 0 ${fmt(e0, 0)}, npm --version ${fmt(v, 0)}, node dist ${fmt(s.ms, 0)} (CPU ${fmt(s.cpuMs, 0)}), npm start ${fmt(n.ms, 0)} (CPU ${fmt(n.cpuMs, 0)}) ms`);
    }
  }
  return all;
}

export async function b4npm(ctx: BenchCtx): Promise<Row[]> {
  if (ctx.source) return [];
  const [f] = await measureStarts(ctx.sizes.b4.starts, ctx.log);
  const m = median(f.npmStart);
  const list = (xs: number[]) => xs.map((v) => fmt(v, 0)).join(', ');
  return [
    {
      id: 'B4 npm',
      what: '`npm start` (built, empty DATA_DIR, SEED_DEMO=0) → first 200 on /api/user/status/',
      subject: `${fmt(m, 0)} ms (min ${fmt(Math.min(...f.npmStart), 0)}, max ${fmt(Math.max(...f.npmStart), 0)})`,
      baseline: `${fmt(median(f.nodeE0), 0)} ms node -e 0, ${fmt(median(f.npmVersion), 0)} ms npm --version, ${fmt(median(f.nodeServer), 0)} ms node dist/server/index.js`,
      ratio: `${fmt(m / median(f.nodeE0), 1)}× node -e 0`,
      goal: '≤ 600 ms',
      pass: m <= 600,
      notes: [
        `npm start (ms): ${list(f.npmStart)}; node dist/server/index.js: ${list(f.nodeServer)}; npm --version: ${list(f.npmVersion)}; node -e 0: ${list(f.nodeE0)}`,
        `CPU to the first 200 (user + system, ms, median): npm start ${fmt(median(f.npmStartCpu), 0)}, node dist/server/index.js ${fmt(median(f.nodeServerCpu), 0)}`,
      ],
      data: f,
    },
  ];
}

/**
 * `npx tsx scripts/bench/lib/start-as-typed.ts [starts] [root …]`: the four figures alone, without the rest of the
 * suite; with several built checkouts (e.g. one before a change), interleaved round by round.
 */
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(ROOT, 'scripts/bench/lib/start-as-typed.ts')) {
  const starts = Number(process.argv[2] ?? 5);
  const roots = process.argv.length > 3 ? process.argv.slice(3).map((r) => path.resolve(r)) : [ROOT];
  measureStarts(starts, (m) => console.error(m), roots)
    .then((all) => {
      for (const [i, f] of all.entries()) {
        console.log(roots[i]);
        for (const [k, v] of Object.entries(f)) console.log(`  ${k.padEnd(13)} median ${fmt(median(v), 0)} ms  [${v.map((x: number) => fmt(x, 0)).join(', ')}]`);
      }
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
