/**
 * The PostgreSQL side of the test servers (`npm run test:pg`, TEST_DB=pg). Each test server gets its own
 * database, copied from a template that is migrated once per run (CREATE DATABASE … TEMPLATE takes ~50 ms,
 * a migration several times that). `pg` is imported only here, only on that run.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, it } from 'vitest';
import { migrateToLatest, openAppDatabase, openDatabase, type DbHandle } from '../../server/db/connection';
import { createDatabase, databaseUrl as urlOn, DEFAULT_ADMIN_URL, dropDatabase, withAdmin } from '../../scripts/lib/harness/postgres';

/** Whether the server suites run on PostgreSQL in this run. */
export const onPostgres = process.env.TEST_DB === 'pg';

/** The database the test run may use to create and drop its own (trust auth on this project's machines). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? DEFAULT_ADMIN_URL;

/**
 * The run these databases belong to: test-pg.mjs's pid (or this worker's, when vitest is started directly).
 * Its names carry it, so a run sweeps only its own databases and those of runs that are gone, never those of
 * another run on the same server (CI and a developer, two checkouts).
 */
const RUN = process.env.TEST_PG_RUN ?? String(process.pid);
/** The migrated template every test database of this run is copied from. */
export const TEMPLATE_DATABASE = `aukcije_test_template_r${RUN}`;
/** Test databases are named with this prefix, so that a run can sweep the ones a crashed worker left. */
export const TEST_DATABASE_PREFIX = `aukcije_t_r${RUN}_`;
/** Any fixed number: the workers of one run take turns building the template. */
const TEMPLATE_LOCK = 724613;

export function databaseUrl(name: string): string {
  return urlOn(TEST_DATABASE_URL, name);
}

let template: Promise<void> | undefined;

/** Builds the template once per run (under an advisory lock: workers start together). */
function ensureTemplate(): Promise<void> {
  template ??= withAdmin(TEST_DATABASE_URL, async (c) => {
    await c.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const found = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [TEMPLATE_DATABASE]);
      if (found.rowCount) return;
      // Built under another name and renamed when complete: a worker never copies a half-migrated template.
      const building = `${TEMPLATE_DATABASE}_${process.pid}`;
      await c.query(`DROP DATABASE IF EXISTS ${building}`);
      await c.query(`CREATE DATABASE ${building}`);
      const h = await openAppDatabase({ databaseUrl: databaseUrl(building), file: '' });
      try {
        await migrateToLatest(h.db);
      } finally {
        await h.close();
      }
      await c.query(`ALTER DATABASE ${building} RENAME TO ${TEMPLATE_DATABASE}`);
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return template;
}

let counter = 0;

/**
 * A new, migrated, empty database of its own; returns its name. `unmigrated`: without the template (the
 * servers started on it migrate it), for a suite that needs PostgreSQL in the SQLite run, where no
 * test-pg.mjs sweeps the template afterwards.
 */
export async function createTestDatabase(opts: { unmigrated?: boolean } = {}): Promise<string> {
  if (!opts.unmigrated) await ensureTemplate();
  counter += 1;
  const name = `${TEST_DATABASE_PREFIX}${process.pid}_${counter}_${randomBytes(3).toString('hex')}`;
  await createDatabase(TEST_DATABASE_URL, name, opts.unmigrated ? undefined : TEMPLATE_DATABASE);
  return name;
}

export function dropTestDatabase(name: string): Promise<void> {
  return dropDatabase(TEST_DATABASE_URL, name);
}

/**
 * Databases by DATA_DIR: a test that restarts a server on the same DATA_DIR (persistence across restarts)
 * finds the same database. A closed server's database is dropped when the next server starts on another
 * DATA_DIR, so at most one per worker outlives its server (test-pg.mjs sweeps those at the end).
 */
const byDataDir = new Map<string, { name: string; open: boolean }>();

export async function testDatabaseFor(dataDir: string): Promise<string> {
  for (const [dir, db] of byDataDir) {
    if (dir !== dataDir && !db.open) {
      byDataDir.delete(dir);
      await dropTestDatabase(db.name);
    }
  }
  const known = byDataDir.get(dataDir);
  if (known) {
    known.open = true;
    return databaseUrl(known.name);
  }
  const name = await createTestDatabase();
  byDataDir.set(dataDir, { name, open: true });
  return databaseUrl(name);
}

/** The server on `dataDir` closed: its database may be dropped (see byDataDir). */
export function releaseTestDatabase(dataDir: string): void {
  const db = byDataDir.get(dataDir);
  if (db) db.open = false;
}

/** The database of a server started as a child process (tests/support/reliability-server.ts) on `dataDir`. */
export interface ChildServerDatabase {
  /** What the child needs in its environment: DATABASE_URL on PostgreSQL, nothing on SQLite (the file in DATA_DIR). */
  env: Record<string, string>;
  /** A connection of the test's own to that database (the SQLite file, or the PostgreSQL database). */
  open(): Promise<DbHandle>;
  /** Drops the PostgreSQL database (nothing on SQLite: the DATA_DIR goes with the test). */
  drop(): Promise<void>;
}

/** On PostgreSQL a database of its own (from the template), on SQLite DATA_DIR/aukcije.sqlite. */
export async function childServerDatabase(dataDir: string): Promise<ChildServerDatabase> {
  if (!onPostgres) {
    return { env: {}, open: async () => openDatabase(path.join(dataDir, 'aukcije.sqlite')), drop: async () => {} };
  }
  const name = await createTestDatabase();
  const url = databaseUrl(name);
  return { env: { DATABASE_URL: url }, open: () => openAppDatabase({ databaseUrl: url, file: '' }), drop: () => dropTestDatabase(name) };
}

/**
 * A describe that reads SQLite itself (its plans, PRAGMAs, FTS5 tables, the raw connection): it runs on
 * SQLite and is skipped on PostgreSQL, visibly, with the reason in its name. Its PostgreSQL counterpart is
 * a separate test.
 */
export function describeSqliteOnly(why: string, name: string, fn: () => void): void {
  describe.skipIf(onPostgres)(`${name} [SQLite only: ${why}]`, fn);
}

/** One test of that kind inside a describe that runs on both. */
export function itSqliteOnly(why: string, name: string, fn: () => Promise<void> | void, timeout?: number): void {
  it.skipIf(onPostgres)(`${name} [SQLite only: ${why}]`, fn, timeout);
}
