/**
 * Aukcije as a child process, the one way tests and benchmarks start it: a port and a DATA_DIR, the environment
 * every such server gets, spawned, waited for until GET /api/user/status/ answers 200, stopped (SIGTERM, then
 * SIGKILL) or killed (SIGKILL). What runs is the caller's: the built dist/server/index.js, server/index.ts
 * through tsx, or a bundle of it (tests/support/reliability-server.ts), with `taskset` in front or not.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/**
 * What every test and bench server is told: 127.0.0.1:`port`, its DATA_DIR, no demo data, no rate limits, and
 * no drain on SIGTERM (no load balancer watches its health; the shutdown tests set their own).
 */
export function serverEnv(port: number, dataDir: string, logLevel: string): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    SEED_DEMO: '0',
    RATE_LIMIT: '0',
    LOG_LEVEL: logLevel,
    SHUTDOWN_DRAIN_SECONDS: '0',
  };
}

export interface ChildProcessHandle {
  child: ChildProcess;
  /** What the process wrote to stderr (the last 2–4 MB). */
  stderr(): string;
  /** Whether it has exited (by itself or by a signal). */
  gone(): boolean;
  /** Resolves once it has exited. */
  exited: Promise<void>;
  /** SIGTERM, SIGKILL after 5 s; resolves once it is gone. */
  stop(): Promise<void>;
  /** SIGKILL, resolved once it is gone. */
  kill9(): Promise<void>;
}

/** Spawns `cmd args` in `cwd` with exactly `env` (stdout ignored, stderr kept). */
export function spawnProcess(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): ChildProcessHandle {
  const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => {
    err += d;
    if (err.length > 4_000_000) err = err.slice(-2_000_000);
  });
  let gone = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => ((gone = true), resolve())));
  return {
    child,
    stderr: () => err,
    gone: () => gone,
    exited,
    async stop() {
      if (gone) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
    async kill9() {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface WaitOptions {
  timeoutMs: number;
  /** Pause between two tries. */
  pollMs: number;
  /** Abort a try after this long (a server that accepts but does not answer yet); none by default. */
  tryTimeoutMs?: number;
}

/** Resolves once `url` answers 200; throws (after SIGKILL) when the process exits first or `timeoutMs` passes. */
export async function waitForHttp(url: string, proc: ChildProcessHandle, opts: WaitOptions): Promise<void> {
  const t0 = performance.now();
  const tail = () => proc.stderr().slice(-2000);
  for (;;) {
    if (proc.gone()) throw new Error(`process exited (${proc.child.exitCode ?? proc.child.signalCode}) before answering ${url}\n${tail()}`);
    try {
      const res = await fetch(url, opts.tryTimeoutMs ? { signal: AbortSignal.timeout(opts.tryTimeoutMs) } : {});
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (performance.now() - t0 > opts.timeoutMs) {
      await proc.kill9();
      throw new Error(`${url} did not answer within ${Math.round(opts.timeoutMs / 1000)} s\n${tail()}`);
    }
    await new Promise((r) => setTimeout(r, opts.pollMs));
  }
}

export interface ServerProcess extends ChildProcessHandle {
  url: string;
  port: number;
  pid: number;
}

/**
 * Spawns the server `cmd args` (env: `env` as given, so the caller decides what it inherits) and resolves once
 * GET /api/user/status/ answers 200 at `port`.
 */
export async function startServerProcess(
  cmd: string,
  args: string[],
  opts: { cwd: string; port: number; env: NodeJS.ProcessEnv } & WaitOptions,
): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${opts.port}`;
  const proc = spawnProcess(cmd, args, opts);
  await waitForHttp(`${url}/api/user/status/`, proc, opts);
  return { ...proc, url, port: opts.port, pid: proc.child.pid! };
}
