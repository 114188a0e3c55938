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

/** Drops the template and every test database a run (this one or a crashed one) left. */
async function sweep() {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    console.error(`PostgreSQL does not answer at ${url} (${err.message}).\nStart it (Debian: apt-get install postgresql && pg_ctlcluster 15 main start) or set TEST_DATABASE_URL.`);
    process.exit(1);
  }
  const { rows } = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE 'aukcije\\_t\\_%' OR datname LIKE 'aukcije\\_test\\_template%'`);
  for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  await client.end();
}

await sweep();
const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const options = process.argv.slice(2).filter((a) => a.startsWith('--'));
const args = ['vitest', 'run', '--project', 'server', ...options, ...(files.length ? files : ['tests/server', 'tests/security', 'tests/reliability'])];
console.log(`$ TEST_DB=pg npx ${args.join(' ')}`);
const r = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, TEST_DB: 'pg', TEST_DATABASE_URL: url } });
await sweep();
process.exit(r.status ?? 1);
