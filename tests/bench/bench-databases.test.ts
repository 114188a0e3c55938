/**
 * The bench's PostgreSQL databases (`aukcije_bench_<pid>_<row>`): a run that was killed leaves its own behind,
 * and the next run drops them, but never those of a run still going (scripts/bench/lib/cluster.ts).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { createBenchDatabase } from '../../scripts/bench/lib/cluster';
import { withAdmin } from '../../scripts/lib/harness/postgres';
import { TEST_DATABASE_URL } from '../support/pg';

const names: string[] = [];

async function admin(text: string, values: unknown[] = []) {
  return (await withAdmin(TEST_DATABASE_URL, (c) => c.query<{ datname: string }>(text, values))).rows;
}

afterAll(async () => {
  for (const n of names) await admin(`DROP DATABASE IF EXISTS "${n}" WITH (FORCE)`);
});

it('a new run drops the databases of runs that are gone and keeps those of runs still going', async () => {
  // A pid that ran a moment ago and is gone, and one that runs (this worker's parent).
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
  const deadName = `aukcije_bench_${dead}_b1n_pg1`;
  const liveName = `aukcije_bench_${process.ppid}_b1n_pg1`;
  names.push(deadName, liveName);
  for (const n of names) await admin(`CREATE DATABASE "${n}"`);
  const mine = await createBenchDatabase('sweep_check');
  names.push(new URL(mine.url).pathname.slice(1));
  const left = (await admin(`SELECT datname FROM pg_database WHERE datname = ANY($1)`, [names])).map((r) => r.datname);
  expect(left.sort()).toEqual([liveName, names[2]].sort());
  await mine.drop();
}, 30_000);
