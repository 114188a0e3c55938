/**
 * `npm start` as a user runs it, on a fresh copy of the project (no dist/): it builds, serves the app, keeps
 * the server's code cache, rebuilds when a source or a build script is newer than the build, and the
 * production bundle loads on first use what the start no longer loads (argon2 at login, nodemailer for the
 * verification mail, multer, file-type and sharp for a new auction with a picture; redis and its adapter and
 * store with REDIS_URL only). A damaged code cache only costs a compile.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAuction, apiUser } from '../e2e/support/api';
import type { TestUser } from '../e2e/support/browser';
import type { E2EServer } from '../e2e/support/server';
import { freePort, readOutbox } from '../support/app';
import { dropRedisPrefix, requireRedis, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/multinode';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const COPY = ['server', 'shared', 'client', 'scripts', 'package.json', 'tsconfig.json', 'vite.config.ts'];
const BUILD_NOTICE = 'Gradim aplikaciju';

let clone: string;

interface Started extends E2EServer {
  log: () => string;
}

/** `npm start` (or `node <entry>`) in the copy with an empty DATA_DIR; resolves once /api/user/status/ answers 200. */
async function start(cmd: 'npm' | 'node', extraEnv: NodeJS.ProcessEnv = {}): Promise<Started> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aukcije-start-data-'));
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir, SEED_DEMO: '0', RATE_LIMIT: '0', LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_SECONDS: '0', ...extraEnv };
  const child: ChildProcess = spawn(cmd === 'npm' ? 'npm' : process.execPath, cmd === 'npm' ? ['start'] : ['dist/server/index.js'], {
    cwd: clone,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += String(d)));
  child.stderr!.on('data', (d) => (log += String(d)));
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}:\n${log}`);
    const status = await fetch(`${url}/api/user/status/`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) throw new Error(`no answer:\n${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const outbox = () => readOutbox(dataDir);
  return {
    url,
    port,
    dataDir,
    outbox,
    log: () => log,
    async waitForMail(to, contains, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const mail = outbox().find((m) => m.text.toLowerCase().includes(to.toLowerCase()) && (!contains || m.text.includes(contains)));
        if (mail) return mail.text;
        if (Date.now() > end) throw new Error(`no mail for ${to}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(-child.pid!, 'SIGTERM'); // npm, and the node it started
        await exited;
      }
      // npm may leave before its node is down: wait until the group is gone.
      for (let i = 0; i < 300; i++) {
        try {
          process.kill(-child.pid!, 0);
        } catch {
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs one `npm start`, checks the app answers, stops it; returns what it printed. */
async function startOnce(): Promise<string> {
  const s = await start('npm');
  try {
    const page = await fetch(`${s.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    return s.log();
  } finally {
    await s.close();
  }
}

const cacheFile = () => path.join(clone, 'dist/server/server.cjs.v8cache');

/** An edit after the build: the build is dated 10 s ago, the file 5 s ago. */
function editAfterBuild(rel: string) {
  const built = new Date(Date.now() - 10_000);
  const edited = new Date(Date.now() - 5_000);
  fs.utimesSync(path.join(clone, 'dist/.build-stamp'), built, built);
  fs.utimesSync(path.join(clone, rel), edited, edited);
}

beforeAll(() => {
  clone = fs.mkdtempSync(path.join(os.tmpdir(), 'aukcije-clone-'));
  for (const entry of COPY) fs.cpSync(path.join(root, entry), path.join(clone, entry), { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'));
});

afterAll(() => {
  if (clone) fs.rmSync(clone, { recursive: true, force: true });
});

describe('npm start on a fresh copy of the project', () => {
  it('builds the first time, then starts without building and with the code cache', { timeout: 300_000 }, async () => {
    expect(fs.existsSync(path.join(clone, 'dist'))).toBe(false);
    expect(await startOnce()).toContain(BUILD_NOTICE);
    expect(fs.existsSync(path.join(clone, 'dist/server/server.cjs'))).toBe(true);
    // Written once the server listened; the next start reads it instead of compiling the bundle.
    expect(fs.statSync(cacheFile()).size).toBeGreaterThan(100_000);
    const cached = fs.statSync(cacheFile()).mtimeMs;

    expect(await startOnce()).not.toContain(BUILD_NOTICE);
    expect(fs.statSync(cacheFile()).mtimeMs).toBe(cached); // accepted, not written again
  });

  it('rebuilds when a source or a build script changed after the build', { timeout: 300_000 }, async () => {
    editAfterBuild('client/src/main.tsx');
    expect(await startOnce()).toContain(BUILD_NOTICE);
    editAfterBuild('scripts/server-loader.mjs');
    expect(await startOnce()).toContain(BUILD_NOTICE);
    expect(await startOnce()).not.toContain(BUILD_NOTICE);
  });

  it('starts with a damaged code cache and replaces it', { timeout: 120_000 }, async () => {
    const buf = fs.readFileSync(cacheFile());
    const nl = buf.indexOf(10);
    // Same key line (so the loader hands it to V8), same length, wrong bytes: V8 must refuse it.
    buf.fill(7, nl + 1);
    fs.writeFileSync(cacheFile(), buf);
    const s = await start('node');
    try {
      const res = await fetch(`${s.url}/api/auctions/?page=1`);
      expect(res.status).toBe(200);
      for (let i = 0; i < 50 && fs.readFileSync(cacheFile()).equals(buf); i++) await new Promise((r) => setTimeout(r, 100));
      expect(fs.readFileSync(cacheFile()).equals(buf)).toBe(false);
    } finally {
      await s.close();
    }
  });

  it('the production build loads argon2, nodemailer, multer, file-type and sharp on first use', { timeout: 120_000 }, async () => {
    const s = await start('node');
    try {
      const user: TestUser = { name: 'Prodavac', email: 'prodavac@start.example', phone: '0641234567', password: 'Lozinka123!' };
      // Register (argon2 hash, verification mail through nodemailer), verify, log in (argon2 check).
      const seller = await apiUser(s, user);
      // A new auction (multer for the fields) with a JPEG (multer, file-type, sharp).
      const id = await apiAuction(seller, { title: 'Lampa sa abažurom' });
      const detail = (await (await fetch(`${s.url}/api/auction/${id}/`)).json()) as { images: { image: string }[] };
      expect(detail.images).toHaveLength(1);
      const picture = await fetch(s.url + detail.images[0].image);
      expect(picture.status).toBe(200);
      expect(picture.headers.get('content-type')).toBe('image/webp');
    } finally {
      await s.close();
    }
  });

  it('the production build requires prom-client only with METRICS_TOKEN, and serves GET /metrics with it (issue 29)', { timeout: 60_000 }, async () => {
    const bundle = fs.readFileSync(path.join(clone, 'dist/server/server.cjs'), 'utf8');
    expect(bundle).toContain('require("prom-client")');
    const token = 'start-test-metrics-token-0123456789';
    const s = await start('node', { METRICS_TOKEN: token });
    try {
      expect((await fetch(`${s.url}/metrics`)).status).toBe(404);
      const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain('# TYPE process_resident_memory_bytes gauge');
      expect(text).toContain('# TYPE aukcije_bids_total counter');
    } finally {
      await s.close();
    }
  });

  it('the production build requires redis, its socket.io adapter and rate-limit store only with REDIS_URL', { timeout: 60_000 }, async () => {
    const bundle = fs.readFileSync(path.join(clone, 'dist/server/server.cjs'), 'utf8');
    for (const m of ['redis', '@socket.io/redis-adapter', 'rate-limit-redis']) expect(bundle).toContain(`require("${m}")`);
    expect(bundle).not.toContain('class RedisAdapter');
    await requireRedis();
    const prefix = uniqueRedisPrefix();
    const s = await start('node', { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix });
    try {
      const health = await fetch(`${s.url}/api/health/`);
      expect(await health.json()).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
    } finally {
      await s.close();
      await dropRedisPrefix(prefix);
    }
  });
});
