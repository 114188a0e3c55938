/**
 * `npm run bench` (quick) / `npm run bench -- --full`: issue 6's benchmark suite. Prints one table
 * (subject, same-run baseline, ratio, goal, pass/fail) and writes artifacts/bench/<mode>[-partial]-latest.{json,md}
 * (git ignores artifacts/: results are not committed; docs/performance.md carries the figures that matter).
 *
 * Options: --full, --only=B1,B3 (B2 and B7 run together; B1 includes B1auto, or --only=B1auto alone; B3g and B6g share one grown database; B1N, B2N and
 * B3PG are the PostgreSQL + Redis rows, NODES all three; B9 10,000 watchers; SOAK the soak row: 3 minutes, 30 with --full; SS the saved-search row), --build (force a rebuild), --no-build
 * (use dist as it is even when stale), --keep (keep the temporary data dirs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { b1, b2b7, b3, b4, b5, b6, type BenchCtx } from './lib/benchmarks';
import { b1reread } from './lib/bidders-that-reread';
import { b1auto } from './lib/bids-with-maxima';
import { b4npm } from './lib/start-as-typed';
import { b3g, grownDatabase, type Grown } from './lib/lists-on-grown-db';
import { b6g } from './lib/memory-on-grown-db';
import { b1nodes, b2nodes, b3pg } from './lib/cluster';
import { b9 } from './lib/many-watchers';
import { soakRow } from './lib/soak';
import { savedSearchRow } from './lib/saved-search-alerts';
import { machine } from './lib/machine';
import { sizesFor, type Mode, type Row } from './lib/options';
import { buildState, ensureBuild, pinningNote, RESULTS_DIR } from './lib/proc';
import { seedBench } from './seed-100k';
import { freshDataDir } from './lib/proc';

const args = process.argv.slice(2);
const mode: Mode = args.includes('--full') ? 'full' : args.includes('--smoke') ? 'smoke' : 'quick';
const only = (args.find((a) => a.startsWith('--only='))?.slice(7).toUpperCase().split(',') ?? []).filter(Boolean);
const want = (id: string) => only.length === 0 || only.includes(id);

export function table(rows: Row[]): string {
  const head = ['#', 'what', 'subject', 'same-run baseline', 'ratio', 'goal', 'result'];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const r of rows) {
    const result = r.pass === null ? 'n/a' : r.pass ? 'PASS' : 'FAIL';
    lines.push(`| ${[r.id, r.what, r.subject, r.baseline, r.ratio, r.goal, result].map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`);
  }
  return lines.join('\n');
}

async function main() {
  const started = new Date();
  const state = buildState();
  if (args.includes('--build')) ensureBuild({ force: true });
  else if (!args.includes('--no-build')) ensureBuild({ rebuildStale: true });
  const sizes = sizesFor(mode);
  const ctx: BenchCtx = { mode, sizes, source: false, log: (m) => console.error(`[bench] ${m}`), cleanup: [] };
  const rows: Row[] = [];
  const failures: string[] = [];
  const guard = async (id: string, fn: () => Promise<Row[]>) => {
    const t0 = Date.now();
    ctx.log(`${id} ...`);
    try {
      const got = await fn();
      rows.push(...got);
      for (const r of got) ctx.log(`${r.id}: ${r.subject} | ${r.baseline} | ${r.ratio} | ${r.pass === null ? 'n/a' : r.pass ? 'PASS' : 'FAIL'}`);
    } catch (err) {
      failures.push(`${id}: ${(err as Error).stack ?? String(err)}`);
      rows.push({ id, what: 'did not finish', subject: String((err as Error).message).split('\n')[0].slice(0, 120), baseline: '—', ratio: '—', goal: '—', pass: false });
    }
    ctx.log(`${id} took ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  };

  try {
    if (want('B4')) await guard('B4', () => b4(ctx));
    if (want('B4')) await guard('B4 npm', () => b4npm(ctx));
    if (want('B5')) await guard('B5', () => b5(ctx));
    if (want('B1')) await guard('B1', () => b1(ctx));
    if (want('B1')) await guard('B1 re-read', () => b1reread(ctx));
    if (want('B1') || want('B1AUTO')) await guard('B1auto', () => b1auto(ctx));
    if (want('B2') || want('B7')) await guard('B2/B7', () => b2b7(ctx));
    if (want('B9')) await guard('B9', () => b9(ctx));
    if (want('B1N') || want('NODES')) await guard('B1 nodes', () => b1nodes(ctx));
    if (want('B2N') || want('NODES')) await guard('B2 nodes', () => b2nodes(ctx));
    if (want('B3PG') || want('NODES')) await guard('B3pg', () => b3pg(ctx, sizes.b3pg.auctions));
    let big: { dir: string } | undefined;
    if (want('B3') || want('B6')) {
      const dir = freshDataDir('100k');
      ctx.cleanup.push(dir);
      const seed = await seedBench(dir, { auctions: sizes.b3.auctions, bidders: 1 });
      ctx.log(`seeded ${sizes.b3.auctions} auctions in ${seed.ms} ms`);
      big = { dir };
    }
    if (want('B3')) await guard('B3', async () => (await b3(ctx, big)).rows);
    // B3g and B6g share one grown database (grown once, or a copy of BENCH_GROWN_DIR).
    let grownP: Promise<Grown> | undefined;
    const grown = () => (grownP ??= grownDatabase(ctx));
    if (want('B3G')) await guard('B3g', () => b3g(ctx, grown()));
    if (want('B6')) await guard('B6', () => b6(ctx, big));
    if (want('B6G')) await guard('B6g', async () => [...(want('B3G') ? [] : (await grown()).rows), ...(await b6g(ctx, grown(), { latency: true }))]);
    if (want('SOAK')) await guard('Soak', () => soakRow(ctx));
    if (want('SS')) await guard('SS', () => savedSearchRow(ctx));
  } finally {
    if (!args.includes('--keep')) for (const d of ctx.cleanup) fs.rmSync(d, { recursive: true, force: true });
  }

  const order = (id: string) => id.replace(/^B(\d).*/, '$1') + id;
  rows.sort((a, b) => order(a.id).localeCompare(order(b.id)));
  const m = machine();
  const finished = new Date();
  const md = [
    `Run: \`npm run bench${mode === 'full' ? ' -- --full' : ''}\` (${mode}), ${started.toISOString()} → ${finished.toISOString()}; dist was ${state} at start.`,
    `Machine: ${Object.entries(m)
      .map(([k, v]) => `${k} ${v}`)
      .join('; ')}; ${pinningNote()}.`,
    '',
    table(rows),
    '',
    'Notes:',
    ...rows.flatMap((r) => (r.notes ?? []).map((n) => `- ${r.id}: ${n}`)),
    ...failures.map((f) => `- ERROR ${f.split('\n').slice(0, 3).join(' ')}`),
  ].join('\n');
  console.log(md);
  const outDir = RESULTS_DIR;
  fs.mkdirSync(outDir, { recursive: true });
  const name = `${mode}${only.length ? '-partial' : ''}-latest`;
  fs.writeFileSync(path.join(outDir, `${name}.md`), `${md}\n`);
  fs.writeFileSync(path.join(outDir, `${name}.json`), `${JSON.stringify({ mode, started, finished, machine: m, rows, failures }, omitSamples, 2)}\n`);
  if (failures.length) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/**
 * JSON replacer for the results file: raw per-request samples (long arrays of numbers) are summarised by
 * their count. The medians and percentiles next to them are kept; the samples made the full run's file ~8 MB.
 */
function omitSamples(_key: string, value: unknown): unknown {
  return Array.isArray(value) && value.length > 1000 && typeof value[0] === 'number' ? `${value.length} samples omitted` : value;
}
