/**
 * B6g (issues 11 and 21): memory of the server on a database grown through the API (lib/lists-on-grown-db.ts
 * `grownDatabase`, shared with B3g in a run, or a copy of BENCH_GROWN_DIR), against a bare socket.io server with
 * as many idle sockets, measured in the same run. Per round:
 *
 * 1. the bare socket.io baseline with `sockets` idle sockets: VmRSS after a 1.5 s settle;
 * 2. the server started with `npm start` as a user types it (lib/start-as-typed.ts; whatever settings `npm start`
 *    applies are measured with it) on a fresh copy of the grown DATA_DIR, B3g's list queries once, the same idle
 *    sockets: row **B6g**. Its RSS is the sum over every process `npm start` runs below npm itself (npm's own
 *    process is reported in the notes, as the bare server has no npm above it);
 * 3. the same server after users' work: UPLOADS[mode] more auctions with one image each from 4 sellers who log in
 *    (lib/grow.ts `growOn`, 4 requests at a time), BIDDERS[mode] more users logging in (4 at a time, as B1 logs its
 *    bidders in) and bidding, and the list queries again; then the idle sockets: row **B6g up** (issue 21's figure).
 *
 * With `latency` (`npm run bench`, not the smoke test), the same server then times LATENCY[mode] logins and as many
 * photo uploads one at a time: rows **B6g login** (POST /api/login/, argon2id verification) and **B6g upload**
 * (POST /api/auction-items/{id}/images/ with a 1600×1200 JPEG of ~0.5 MB: sniffing, decoding, re-encoding).
 *
 * Both processes get lib/mem-probe.mjs preloaded, so each round also records where the memory is (V8 heap,
 * external, RssAnon/RssFile) after the RSS was read; the notes give the medians.
 *
 * `npm run bench -- --only=B6g` runs it alone (it grows its database first unless BENCH_GROWN_DIR is set).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { b3gQueries, type Grown } from './lists-on-grown-db';
import { holdSockets, type BenchCtx } from './benchmarks';
import sharp from 'sharp';
import { BENCH_PASSWORD } from '../seed-100k';
import { login } from './client';
import { growOn, insertSellers } from './grow';
import type { Mode, Row } from './options';
import { BENCH_DIR, freshDataDir, rssBytes, startBaseline, startServer, type Running } from './proc';
import { startAsTyped } from './start-as-typed';
import { fmt, median, percentile, sleep } from './stats';

/** What lib/mem-probe.mjs writes. */
export interface MemReport {
  memory: NodeJS.MemoryUsage;
  status: { rss: number | null; anon: number | null; file: number | null; shmem: number | null };
  heap: { total_heap_size: number; used_heap_size: number; malloced_memory: number; external_memory: number };
  spaces: { name: string; size: number; used: number }[];
}

export interface B6gRound {
  base: number;
  subj: number;
  /** The same server after `uploads` more auctions (one image each) created through the API. */
  uploaded: number;
  baseMem: MemReport | null;
  subjMem: MemReport | null;
  uploadedMem: MemReport | null;
  /** RSS of npm's own process above the server (not in `subj`/`uploaded`); null when started without npm. */
  npm: number | null;
  /** Bids answered 201 / 400 during the users' work. */
  bids: { accepted: number; refused: number };
  /** Logins and uploads one at a time (null without `latency`). */
  timed: Timed | null;
}

/** Auctions created through the API (one image each) before the second measurement of a round. */
export const UPLOADS: Record<Mode, number> = { smoke: 10, quick: 1000, full: 2000 };
/** Users who log in (4 at a time) and bid during the users' work. */
export const BIDDERS: Record<Mode, number> = { smoke: 4, quick: 50, full: 50 };
/** Bids each of them sends. */
const BIDS_EACH = 10;
/** Logins and uploads timed one at a time per round (rows B6g login and B6g upload). */
export const LATENCY: Record<Mode, number> = { smoke: 2, quick: 12, full: 30 };

const PROBE = path.join(BENCH_DIR, 'lib', 'mem-probe.mjs');

function probeEnv(file: string): Record<string, string> {
  const prior = process.env.NODE_OPTIONS ? `${process.env.NODE_OPTIONS} ` : '';
  return { NODE_OPTIONS: `${prior}--import ${JSON.stringify(PROBE)}`, BENCH_MEM_FILE: file };
}

/** Asks the probe in `proc` for its report (null when it does not answer within 3 s). */
async function memReport(proc: Running, file: string): Promise<MemReport | null> {
  fs.rmSync(file, { force: true });
  process.kill(proc.pid, 'SIGUSR2');
  for (let i = 0; i < 150; i++) {
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as MemReport;
    await sleep(20);
  }
  return null;
}

/** RSS of `proc` (of every process in `pids()` when given) after `sockets` idle sockets and a 1.5 s settle, then the probe's report. */
async function measure(proc: Running, sockets: number, file: string, pids: () => number[] = () => [proc.pid]): Promise<{ rss: number; mem: MemReport | null }> {
  const held = await holdSockets(proc.url, sockets, null);
  try {
    await sleep(1500);
    const rss = pids().reduce((sum, pid) => sum + rssBytes(pid), 0);
    return { rss, mem: await memReport(proc, file) };
  } finally {
    await held.stop();
  }
}

async function post(base: string, cookie: string, csrf: string, url: string, body: FormData | string): Promise<Response> {
  const headers: Record<string, string> = { cookie, 'x-csrftoken': csrf, origin: base };
  if (typeof body === 'string') headers['content-type'] = 'application/json';
  return fetch(base + url, { method: 'POST', headers, body });
}

/** `BIDDERS[mode]` new users log in (4 at a time) and each sends BIDS_EACH bids on auction 1, racing each other. */
async function loginsAndBids(base: string, dir: string, mode: Mode, prefix: string): Promise<{ accepted: number; refused: number }> {
  const users = await insertSellers(path.join(dir, 'aukcije.sqlite'), BIDDERS[mode], prefix);
  const who = [];
  for (let i = 0; i < users.length; i += 4) who.push(...(await Promise.all(users.slice(i, i + 4).map((u) => login(base, u.email, BENCH_PASSWORD)))));
  const auction = (await (await fetch(`${base}/api/auction/1/`)).json()) as { current_price: number };
  let price = auction.current_price;
  const out = { accepted: 0, refused: 0 };
  await Promise.all(
    who.map(async (w) => {
      for (let i = 0; i < BIDS_EACH; i++) {
        const res = await post(base, w.cookie, w.csrf, '/api/bids/', JSON.stringify({ auction_item_id: 1, amount: price + 10 }));
        const body = (await res.json()) as { current_price?: number };
        price = Math.max(price, body.current_price ?? price);
        if (res.status === 201) out.accepted += 1;
        else if (res.status === 400) out.refused += 1;
        else throw new Error(`B6g: a bid answered ${res.status} ${JSON.stringify(body)}`);
      }
    }),
  );
  return out;
}

/** A 1600×1200 photo-like JPEG (noise, so it does not compress to nothing): what a phone uploads, smaller. */
async function photo(): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 120, g: 140, b: 90 }, noise: { type: 'gaussian', mean: 128, sigma: 20 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** CPU time (user + system, ms) process `pid` has used so far (Linux /proc; NaN elsewhere). Moves less with the machine's load than wall time. */
function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // USER_HZ = 100
  } catch {
    return NaN;
  }
}

export interface Timed {
  /** Wall ms of each login (GET /api/csrf/ + POST /api/login/) and of each image POST. */
  loginMs: number[];
  uploadMs: number[];
  /** Server CPU ms per login and per upload (the upload's auction creation included), over the whole series. */
  loginCpuMs: number;
  uploadCpuMs: number;
}

/** `n` logins, then `n` uploads (each to a new auction), one request at a time, on the server process `pid`. */
export async function timeLoginsAndUploads(base: string, dir: string, n: number, prefix: string, pid: number): Promise<Timed> {
  const users = await insertSellers(path.join(dir, 'aukcije.sqlite'), n, prefix);
  const loginMs: number[] = [];
  let seller = { cookie: '', csrf: '' };
  const c0 = cpuMs(pid);
  for (const u of users) {
    const t0 = performance.now();
    seller = await login(base, u.email, BENCH_PASSWORD);
    loginMs.push(performance.now() - t0);
  }
  const c1 = cpuMs(pid);
  const jpeg = await photo();
  const uploadMs: number[] = [];
  for (let i = 0; i < n; i++) {
    const form = new FormData();
    for (const [k, v] of Object.entries({ title: `Fotografija ${i + 1}`, description: 'Predmet sa pravom fotografijom, za merenje otpremanja.', current_price: '1000', auction_duration: '7', city: 'Beograd', phone_number: '0641234567', category: 'other' }))
      form.append(k, v);
    const created = await post(base, seller.cookie, seller.csrf, '/api/auctionItems/', form);
    const { id } = (await created.json()) as { id?: number };
    if (created.status !== 201 || !id) throw new Error(`B6g: create answered ${created.status}`);
    const files = new FormData();
    files.append('image', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), `foto-${i + 1}.jpg`);
    const t0 = performance.now();
    const up = await post(base, seller.cookie, seller.csrf, `/api/auction-items/${id}/images/`, files);
    const text = await up.text();
    uploadMs.push(performance.now() - t0);
    if (up.status < 200 || up.status > 299) throw new Error(`B6g: upload answered ${up.status} ${text.slice(0, 200)}`);
  }
  return { loginMs, uploadMs, loginCpuMs: (c1 - c0) / n, uploadCpuMs: (cpuMs(pid) - c1) / n };
}

export async function b6gRounds(ctx: BenchCtx, grown: Grown, opts: { rounds?: number; latency?: boolean } = {}): Promise<B6gRound[]> {
  const rounds = opts.rounds ?? Math.max(1, ctx.sizes.rounds - 1);
  const { sockets } = ctx.sizes.b6;
  const memFile = path.join(os.tmpdir(), `aukcije-bench-mem-${process.pid}.json`);
  const out: B6gRound[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      const bare = await startBaseline('bare-io', undefined, probeEnv(memFile));
      let base: { rss: number; mem: MemReport | null };
      try {
        base = await measure(bare, sockets, memFile);
      } finally {
        await bare.stop();
      }
      const dir = freshDataDir('b6g');
      try {
        fs.cpSync(grown.dir, dir, { recursive: true });
        // As users start it (npm start); the smoke test without a build runs the sources instead.
        const typed = ctx.source ? null : await startAsTyped(dir, probeEnv(memFile));
        const server = typed ?? (await startServer({ dataDir: dir, source: ctx.source, env: probeEnv(memFile) }));
        const pids = typed ? typed.serverPids : () => [server.pid];
        try {
          const lists = async () => {
            for (const q of b3gQueries()) await (await fetch(server.url + q.path)).arrayBuffer();
          };
          await lists();
          const subj = await measure(server, sockets, memFile, pids);
          await growOn(server.url, dir, { auctions: UPLOADS[ctx.mode], sellers: 4, sellerPrefix: `b6g${r}-` });
          const bids = await loginsAndBids(server.url, dir, ctx.mode, `b6g${r}-bidder`);
          await lists();
          const uploaded = await measure(server, sockets, memFile, pids);
          const npm = typed ? rssBytes(typed.npmPid) : null;
          const timed = opts.latency ? await timeLoginsAndUploads(server.url, dir, LATENCY[ctx.mode], `b6g${r}-timed`, server.pid) : null;
          out.push({ base: base.rss, subj: subj.rss, uploaded: uploaded.rss, baseMem: base.mem, subjMem: subj.mem, uploadedMem: uploaded.mem, npm, bids, timed });
        } finally {
          await server.stop();
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      const o = out[r];
      ctx.log(
        `B6g round ${r + 1}: bare ${fmt(base.rss / 1e6, 0)} MB, server ${fmt(o.subj / 1e6, 0)} MB, after users' work ${fmt(o.uploaded / 1e6, 0)} MB` +
          (o.timed ? `; login p50 ${fmt(median(o.timed.loginMs), 0)} ms (CPU ${fmt(o.timed.loginCpuMs, 0)}), upload p50 ${fmt(median(o.timed.uploadMs), 0)} ms (CPU ${fmt(o.timed.uploadCpuMs, 0)})` : ''),
      );
    }
  } finally {
    fs.rmSync(memFile, { force: true });
  }
  return out;
}

const mb = (v: number) => fmt(v / 1e6, 1);

/** "heap used/total, external, arrayBuffers, anon/file RSS" medians over the rounds' reports. */
export function breakdown(reports: (MemReport | null)[]): string {
  const got = reports.filter((r): r is MemReport => r !== null);
  if (got.length === 0) return 'no probe report';
  const m = (f: (r: MemReport) => number | null) => mb(median(got.map(f).filter((v): v is number => v !== null)));
  const spaces = ['old_space', 'code_space', 'new_space', 'large_object_space']
    .map((name) => `${name} ${m((r) => r.spaces.find((s) => s.name === name)?.size ?? null)}`)
    .join(', ');
  return (
    `RSS ${m((r) => r.status.rss)} MB = anon ${m((r) => r.status.anon)} + file ${m((r) => r.status.file)} + shmem ${m((r) => r.status.shmem)}; ` +
    `V8 heap ${m((r) => r.memory.heapUsed)} used / ${m((r) => r.memory.heapTotal)} total (${spaces}), ` +
    `external ${m((r) => r.memory.external)} (arrayBuffers ${m((r) => r.memory.arrayBuffers)}), malloced by V8 ${m((r) => r.heap.malloced_memory)} MB`
  );
}

/** B6g's rows; with `latency` also B6g login and B6g upload, timed on the same servers. */
export async function b6g(ctx: BenchCtx, grown: Promise<Grown> | Grown, opts: { latency?: boolean } = {}): Promise<Row[]> {
  const g = await grown;
  const { sockets } = ctx.sizes.b6;
  const rounds = await b6gRounds(ctx, g, { latency: opts.latency });
  const m = median(rounds.map((r) => r.subj)) / 1e6;
  const u = median(rounds.map((r) => r.uploaded)) / 1e6;
  const b = median(rounds.map((r) => r.base)) / 1e6;
  const what = `${fmt(g.auctions, 0)} auctions grown through the API${g.reused ? ' (BENCH_GROWN_DIR copy)' : ''}`;
  const perRound = (f: (r: B6gRound) => number) => rounds.map((r) => fmt(f(r) / 1e6, 0)).join(', ');
  return [
    {
      id: 'B6g',
      what: `RSS with ${fmt(sockets, 0)} idle sockets, ${what}, fresh start`,
      subject: `${fmt(m, 0)} MB`,
      baseline: `${fmt(b, 0)} MB bare socket.io`,
      ratio: `${fmt(m / b, 2)}×`,
      goal: '≤ 200 MB and ≤ 2×',
      pass: m <= 200 && m / b <= 2,
      notes: [
        `rounds (MB) subject: ${perRound((r) => r.subj)}; baseline: ${perRound((r) => r.base)}`,
        `server: ${breakdown(rounds.map((r) => r.subjMem))}`,
        `bare socket.io: ${breakdown(rounds.map((r) => r.baseMem))}`,
      ],
      data: rounds,
    },
    {
      id: 'B6g up',
      what: `the same server (npm start) after ${fmt(UPLOADS[ctx.mode], 0)} more auctions with one image each through the API, ${fmt(BIDDERS[ctx.mode] + 4, 0)} logins, ${fmt(BIDDERS[ctx.mode] * BIDS_EACH, 0)} bids, ${fmt(sockets, 0)} idle sockets`,
      subject: `${fmt(u, 0)} MB`,
      baseline: `${fmt(b, 0)} MB bare socket.io`,
      ratio: `${fmt(u / b, 2)}×`,
      goal: '≤ 200 MB and ≤ 2×',
      pass: u <= 200 && u / b <= 2,
      notes: [
        `rounds (MB): ${perRound((r) => r.uploaded)}`,
        `server: ${breakdown(rounds.map((r) => r.uploadedMem))}`,
        `bids accepted/refused per round: ${rounds.map((r) => `${r.bids.accepted}/${r.bids.refused}`).join(', ')}`,
        `npm's own process above the server (not counted): ${rounds.map((r) => (r.npm === null ? 'none' : `${fmt(r.npm / 1e6, 0)} MB`)).join(', ')}`,
      ],
    },
    ...(opts.latency ? latencyRows(rounds) : []),
  ];
}

/**
 * B6g login / B6g upload: one request at a time on the servers B6g measured, after their users' work. Wall time
 * (p50, p95) and the server's CPU per request (median over the rounds), which a busy machine moves less.
 */
function latencyRows(rounds: B6gRound[]): Row[] {
  const timed = rounds.map((r) => r.timed).filter((t): t is Timed => t !== null);
  const row = (id: string, what: string, ms: number[], cpu: number[]): Row => ({
    id,
    what,
    subject: `p50 ${fmt(median(ms), 0)} ms, p95 ${fmt(percentile(ms, 95), 0)} ms; server CPU ${fmt(median(cpu), 1)} ms each (${ms.length} requests)`,
    baseline: '—',
    ratio: '—',
    goal: 'no more than 10 % slower than before the memory settings (issue 21)',
    pass: null,
    notes: [`${id} (ms): ${ms.map((v) => fmt(v, 0)).join(', ')}; server CPU per request by round: ${cpu.map((v) => fmt(v, 1)).join(', ')}`],
  });
  return [
    row('B6g login', 'GET /api/csrf/ + POST /api/login/ (argon2id verification), one at a time, on the B6g server', timed.flatMap((t) => t.loginMs), timed.map((t) => t.loginCpuMs)),
    row(
      'B6g upload',
      'POST /api/auction-items/{id}/images/ with a 1600×1200 JPEG, one at a time, on the B6g server (CPU: with the auction creation before it)',
      timed.flatMap((t) => t.uploadMs),
      timed.map((t) => t.uploadCpuMs),
    ),
  ];
}
