#!/usr/bin/env node
// `npm run test:pg`: the server, security and reliability suites on PostgreSQL (TEST_DB=pg). Every test
// server gets its own database, copied from a template migrated once per run (tests/support/pg.ts).
// TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names where to create them.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const run = String(process.pid);

/** Whether the process that named a database (`_r<pid>`) still runs: its databases are not ours to drop. */
function alive(pid) {
  if (pid === run) return false;
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Drops this run's template and test databases, and those of runs that are gone (crashed, killed). */
async function sweep() {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    console.error(`PostgreSQL does not answer at ${url} (${err.message}).\nStart it (Debian: apt-get install postgresql && pg_ctlcluster 15 main start) or set TEST_DATABASE_URL.`);
    process.exit(1);
  }
  const { rows } = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE 'aukcije\\_t\\_%' OR datname LIKE 'aukcije\\_test\\_template%'`);
  for (const { datname } of rows) {
    const owner = /_r(\d+)/.exec(datname)?.[1];
    if (owner && alive(owner)) continue;
    await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
  await client.end();
}

await sweep();
const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const options = process.argv.slice(2).filter((a) => a.startsWith('--'));
const args = ['vitest', 'run', '--project', 'server', ...options, ...(files.length ? files : ['tests/server', 'tests/security', 'tests/reliability'])];
console.log(`$ TEST_DB=pg npx ${args.join(' ')}`);
const r = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, TEST_DB: 'pg', TEST_DATABASE_URL: url, TEST_PG_RUN: run } });
await sweep();
process.exit(r.status ?? 1);
