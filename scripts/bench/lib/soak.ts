/**
 * Soak (issue 29, "Faults, on two nodes"): one server under a steady, ordinary load for a long time (quick 3
 * minutes, full 30): bids on three auctions, list reads, and watchers joined to the busiest auction, from the
 * load core (loadgen/soak.ts, an open loop at fixed rates). The server runs with lib/loop-probe.mjs preloaded,
 * which records its RSS and event-loop delay every few seconds. The row prints the slope of both (least squares
 * over the samples after the first fifth, the warm-up) and passes when neither grows, projected over the
 * measured stretch, by more than 5 % of the RSS or 5 ms of event-loop p99, with 0 errors.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CATEGORY_VALUES } from '@shared/categories';
import type { SoakConfig, SoakKind, SoakResult } from '../loadgen/soak';
import { holdSockets, seeded, type BenchCtx } from './benchmarks';
import { loginAll } from './client';
import type { Row } from './options';
import { BENCH_DIR, runLoad, startServer } from './proc';
import { fmt, median } from './stats';
import { BENCH_PASSWORD } from '../seed-100k';

export interface LoopSample {
  t: number;
  rss: number;
  heapUsed: number;
  mean: number;
  p50: number;
  p99: number;
  max: number;
}

/** Least-squares slope of y over x. */
export function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? NaN : points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
}

/** Answers that are not what a working server gives: bids other than 201/400, reads other than 200, no answer. */
export function soakErrors(r: SoakResult): number {
  const bad = (k: SoakKind, ok: string[]) => k.errors + k.timeouts + Object.entries(k.statuses).reduce((s, [status, n]) => s + (ok.includes(status) ? 0 : n), 0);
  return bad(r.bids, ['201', '400']) + bad(r.reads, ['200']);
}

export interface SoakFigures {
  minutes: number;
  samples: number;
  rssStartMb: number;
  rssEndMb: number;
  rssSlopeMbPerMin: number;
  loopP99StartMs: number;
  loopP99EndMs: number;
  loopP99SlopeMsPerMin: number;
  flat: boolean;
}

/** The slopes of RSS and event-loop p99 over the samples after the warm-up (the first fifth). */
export function soakFigures(samples: LoopSample[]): SoakFigures {
  const warm = samples.slice(Math.max(1, Math.floor(samples.length / 5)));
  const t0 = warm[0]?.t ?? 0;
  const minutes = warm.length > 1 ? (warm[warm.length - 1].t - t0) / 60_000 : 0;
  const rss = warm.map((s) => ({ x: (s.t - t0) / 60_000, y: s.rss / 2 ** 20 }));
  const p99 = warm.map((s) => ({ x: (s.t - t0) / 60_000, y: s.p99 }));
  const edge = (xs: { y: number }[], from: number) => median(xs.slice(from, from + Math.max(1, Math.ceil(xs.length / 10))).map((p) => p.y));
  const tail = (xs: { y: number }[]) => edge(xs, Math.max(0, xs.length - Math.max(1, Math.ceil(xs.length / 10))));
  const rssSlope = slope(rss);
  const p99Slope = slope(p99);
  const meanRss = median(rss.map((p) => p.y));
  const flat = Number.isFinite(rssSlope) && Number.isFinite(p99Slope) && rssSlope * minutes <= 0.05 * meanRss && p99Slope * minutes <= 5;
  return {
    minutes,
    samples: warm.length,
    rssStartMb: edge(rss, 0),
    rssEndMb: tail(rss),
    rssSlopeMbPerMin: rssSlope,
    loopP99StartMs: edge(p99, 0),
    loopP99EndMs: tail(p99),
    loopP99SlopeMsPerMin: p99Slope,
    flat,
  };
}

export async function soakRow(ctx: BenchCtx): Promise<Row[]> {
  const cfg = ctx.sizes.soak;
  const { dir, seed } = await seeded(ctx, 'soak', ctx.mode === 'smoke' ? 200 : 2000, 20);
  const probeFile = path.join(dir, 'loop-probe.jsonl');
  const prior = process.env.NODE_OPTIONS ? `${process.env.NODE_OPTIONS} ` : '';
  const env = {
    NODE_OPTIONS: `${prior}--import ${JSON.stringify(path.join(BENCH_DIR, 'lib', 'loop-probe.mjs'))}`,
    BENCH_LOOP_FILE: probeFile,
    BENCH_LOOP_EVERY_MS: String(cfg.sampleSeconds * 1000),
  };
  const server = await startServer({ dataDir: dir, source: ctx.source, env });
  // The seed writes two more open auctions right after the hot one (open for at least an hour).
  const auctionIds = [seed.hotAuctionId, seed.hotAuctionId + 1, seed.hotAuctionId + 2];
  const held = await holdSockets(server.url, cfg.watchers, seed.hotAuctionId);
  let result: SoakResult;
  try {
    const identities = await loginAll(server.url, seed.bidders.map((b) => b.email), BENCH_PASSWORD);
    const job: SoakConfig = {
      base: server.url,
      identities,
      auctionIds,
      startPrice: seed.hotStartPrice,
      bidsPerSecond: cfg.bidsPerSecond,
      readsPerSecond: cfg.readsPerSecond,
      seconds: cfg.seconds,
      readPaths: ['/api/auctions/?page=1', '/api/auctions/?page=2', `/api/auctions/?page=1&category=${CATEGORY_VALUES[0]}`, '/api/auctions/?page=1&q=lampa', '/api/auctions/best/'],
    };
    ctx.log(`soak: ${cfg.seconds} s at ${cfg.bidsPerSecond} bids/s and ${cfg.readsPerSecond} reads/s, ${cfg.watchers} watchers`);
    result = await runLoad<SoakResult>('soak.ts', job);
  } finally {
    await held.stop().catch(() => undefined);
    await server.stop();
  }
  const samples = fs
    .readFileSync(probeFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LoopSample);
  const f = soakFigures(samples);
  const errors = soakErrors(result);
  return [
    {
      id: 'Soak',
      what: `${fmt(cfg.seconds / 60, 1)} min at ${cfg.bidsPerSecond} bids/s on 3 auctions + ${cfg.readsPerSecond} list reads/s, ${cfg.watchers} watchers: RSS and event-loop delay`,
      subject:
        `RSS ${fmt(f.rssStartMb)} → ${fmt(f.rssEndMb)} MB (slope ${fmt(f.rssSlopeMbPerMin, 2)} MB/min), ` +
        `event-loop p99 ${fmt(f.loopP99StartMs)} → ${fmt(f.loopP99EndMs)} ms (slope ${fmt(f.loopP99SlopeMsPerMin, 2)} ms/min); ${errors} errors`,
      baseline: '—',
      ratio: '—',
      goal: 'flat: slope × duration ≤ 5 % of RSS and ≤ 5 ms of event-loop p99; 0 errors',
      pass: f.flat && errors === 0,
      notes: [
        `bids ${JSON.stringify(result.bids.statuses)} (p99 ${fmt(result.bids.p99)} ms, max ${fmt(result.bids.max)} ms), reads ${JSON.stringify(result.reads.statuses)} (p99 ${fmt(result.reads.p99)} ms); ` +
          `errors/timeouts ${result.bids.errors + result.reads.errors}/${result.bids.timeouts + result.reads.timeouts}; ${f.samples} samples over ${fmt(f.minutes, 1)} min after the warm-up`,
      ],
      data: { figures: f, errors, result, samples },
    },
  ];
}
