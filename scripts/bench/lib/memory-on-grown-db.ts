/**
 * B6g (issue 11): B6 on the database grown through the API (lib/lists-on-grown-db.ts `grownDatabase`, shared with B3g in a
 * run, or a copy of BENCH_GROWN_DIR). Per round: the bare socket.io baseline with `sockets` idle sockets, then
 * the server on a fresh copy of the grown DATA_DIR, B3g's list queries once, the same idle sockets; VmRSS of
 * each after a 1.5 s settle (row B6g). Then the same server creates UPLOADS[mode] more auctions with one image
 * each through the API (lib/grow.ts `growOn`), as the server that grew the database did, and is measured again
 * with the sockets (row "B6g up"). Goal as B6: ≤ 2× the bare server of the same run.
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
import { growOn } from './grow';
import type { Mode, Row } from './options';
import { BENCH_DIR, freshDataDir, rssBytes, startBaseline, startServer, type Running } from './proc';
import { fmt, median, sleep } from './stats';

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
}

/** Auctions created through the API (one image each) before the second measurement of a round. */
export const UPLOADS: Record<Mode, number> = { smoke: 10, quick: 1000, full: 2000 };

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

/** RSS of `proc` after `sockets` idle sockets and a 1.5 s settle, then the probe's report. */
async function measure(proc: Running, sockets: number, file: string): Promise<{ rss: number; mem: MemReport | null }> {
  const held = await holdSockets(proc.url, sockets, null);
  try {
    await sleep(1500);
    const rss = rssBytes(proc.pid);
    return { rss, mem: await memReport(proc, file) };
  } finally {
    await held.stop();
  }
}

export async function b6gRounds(ctx: BenchCtx, grown: Grown, rounds = Math.max(1, ctx.sizes.rounds - 1)): Promise<B6gRound[]> {
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
        const server = await startServer({ dataDir: dir, source: ctx.source, env: probeEnv(memFile) });
        try {
          for (const q of b3gQueries()) await (await fetch(server.url + q.path)).arrayBuffer();
          const subj = await measure(server, sockets, memFile);
          await growOn(server.url, dir, { auctions: UPLOADS[ctx.mode], sellers: 4, sellerPrefix: `b6g${r}-` });
          const uploaded = await measure(server, sockets, memFile);
          out.push({ base: base.rss, subj: subj.rss, uploaded: uploaded.rss, baseMem: base.mem, subjMem: subj.mem, uploadedMem: uploaded.mem });
        } finally {
          await server.stop();
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      ctx.log(`B6g round ${r + 1}: bare ${fmt(base.rss / 1e6, 0)} MB, server ${fmt(out[r].subj / 1e6, 0)} MB, after uploads ${fmt(out[r].uploaded / 1e6, 0)} MB`);
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

export async function b6g(ctx: BenchCtx, grown: Promise<Grown> | Grown): Promise<Row[]> {
  const g = await grown;
  const { sockets } = ctx.sizes.b6;
  const rounds = await b6gRounds(ctx, g);
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
      goal: '≤ 250 MB and ≤ 2×',
      pass: m <= 250 && m / b <= 2,
      notes: [
        `rounds (MB) subject: ${perRound((r) => r.subj)}; baseline: ${perRound((r) => r.base)}`,
        `server: ${breakdown(rounds.map((r) => r.subjMem))}`,
        `bare socket.io: ${breakdown(rounds.map((r) => r.baseMem))}`,
      ],
      data: rounds,
    },
    {
      id: 'B6g up',
      what: `the same server after ${fmt(UPLOADS[ctx.mode], 0)} more auctions with one image each through the API, ${fmt(sockets, 0)} idle sockets`,
      subject: `${fmt(u, 0)} MB`,
      baseline: `${fmt(b, 0)} MB bare socket.io`,
      ratio: `${fmt(u / b, 2)}×`,
      goal: '≤ 250 MB and ≤ 2×',
      pass: u <= 250 && u / b <= 2,
      notes: [`rounds (MB): ${perRound((r) => r.uploaded)}`, `server: ${breakdown(rounds.map((r) => r.uploadedMem))}`],
    },
  ];
}
