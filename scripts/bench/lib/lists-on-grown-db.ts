/**
 * B3g (issue 11): B3 on a database grown through the HTTP API (lib/grow.ts: the real server from an empty
 * DATA_DIR, every auction created by a logged-in seller with one small image), which has only the statistics
 * the server gathers itself, not the bulk seeder's `PRAGMA optimize`. `category=all-auctions` as the spec's
 * client sends it; every sort at page 1 and 50, a category and a search. Goal as on the seeded database.
 *
 * `npm run bench -- --only=B3g` runs it alone. BENCH_GROWN_DIR=<dir>: use a copy of a database grown earlier (e.g. by `npx tsx scripts/bench/lib/grow.ts`)
 * instead of growing one (20,000 auctions take ~8 minutes on the shared 2-core machine). B6g (lib/memory-on-grown-db.ts) reuses
 * the same grown database within a run (grownDatabase).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sqliteDriver } from '../../../server/db/sqlite-driver';
import { CATEGORY_VALUES } from '@shared/categories';
import { SORTS } from '@shared/schemas/auctions';
import { b3, type BenchCtx } from './benchmarks';
import { growThroughApi } from './grow';
import type { Mode, Row } from './options';
import { freshDataDir } from './proc';
import { fmt } from './stats';

/** Auctions grown per mode: creating them through the API runs at ~40/s here. */
const GROWN: Record<Mode, number> = { smoke: 200, quick: 20_000, full: 100_000 };

export function b3gQueries(): { name: string; path: string }[] {
  const all = '/api/auctions/?category=all-auctions';
  const cat = CATEGORY_VALUES[3];
  return [
    ...SORTS.flatMap((sort) => [1, 50].map((page) => ({ name: `${sort} page ${page}`, path: `${all}&sort=${sort}&page=${page}` }))),
    { name: `category ${cat}`, path: `/api/auctions/?category=${encodeURIComponent(cat)}&page=1` },
    { name: 'search q=sesir', path: `${all}&q=sesir&page=1` },
  ];
}

/** The grown database B3g and B6g (lib/memory-on-grown-db.ts) run on: grown once per run, or a copy of BENCH_GROWN_DIR. */
export interface Grown {
  dir: string;
  auctions: number;
  /** Whether it is a BENCH_GROWN_DIR copy rather than grown in this run. */
  reused: boolean;
  /** The "B3g grow" row when it was grown in this run. */
  rows: Row[];
}

/** Grows `GROWN[mode]` auctions through the API into a fresh dir, or copies BENCH_GROWN_DIR there. */
export async function grownDatabase(ctx: BenchCtx): Promise<Grown> {
  const dir = freshDataDir('grown');
  ctx.cleanup.push(dir);
  const rows: Row[] = [];
  let auctions = GROWN[ctx.mode];
  const reuse = process.env.BENCH_GROWN_DIR;
  if (reuse) {
    fs.cpSync(reuse, dir, { recursive: true });
    auctions = countOf(dir);
    ctx.log(`grown database: copy of ${reuse} (${auctions} auctions)`);
  } else {
    const grown = await growThroughApi({ auctions, dataDir: dir, source: ctx.source, log: ctx.log });
    ctx.log(`grown database: grew ${auctions} auctions through the API in ${(grown.ms / 1000).toFixed(0)} s`);
    rows.push({
      id: 'B3g grow',
      what: `${fmt(auctions, 0)} auctions created through the API, one image each`,
      subject: `${fmt(grown.perSecond, 1)} auctions/s (${fmt(grown.ms / 1000, 0)} s, 4 at a time)`,
      baseline: '—',
      ratio: '—',
      goal: '—',
      pass: null,
    });
  }
  return { dir, auctions, reused: !!reuse, rows };
}

/** B3g's rows (with the grow row when it grew); `grown`: a database grown earlier in this run (shared with B6g). */
export async function b3g(ctx: BenchCtx, grown?: Promise<Grown> | Grown): Promise<Row[]> {
  const g = await (grown ?? grownDatabase(ctx));
  const label = g.reused ? 'grown through the API (BENCH_GROWN_DIR copy)' : 'grown through the API';
  const { rows: listRows } = await b3(ctx, { dir: g.dir }, { id: 'B3g', queries: b3gQueries(), auctions: g.auctions, label });
  return [...g.rows, ...listRows];
}

/** The number of auctions in a copied database (for the rows' labels). */
function countOf(dir: string): number {
  const db = new (sqliteDriver())(path.join(dir, 'aukcije.sqlite'), { readonly: true });
  try {
    return (db.prepare('select count(*) as n from auctions').get() as { n: number }).n;
  } finally {
    db.close();
  }
}
