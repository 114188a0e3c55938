import fs from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  sql,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type KyselyConfig,
  type MigrationProvider,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import { migrations } from './migrations/index';
import { registerSqlFunctions } from './sql-functions';
import { sqliteDriver } from './sqlite-driver';
import { isPostgres, type DialectName } from './dialect';
import { openPostgresPool } from './postgres';
import { WalCheckpoints } from './wal-checkpoints';
import type { Database } from './types';

/**
 * The app's database. Everything goes through `db` (kysely) on both dialects, except the session store's
 * repository on SQLite, built on prepared statements of the raw connection so that it answers synchronously
 * (the socket session check relies on that, realtime/session-check.ts); on PostgreSQL it is the same table
 * through kysely, answering with promises. `sqlite` exists on SQLite only: on PostgreSQL reading it throws,
 * so a SQLite-only path (a test reading PRAGMAs, a benchmark's bulk insert) fails loudly, never silently.
 */
export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** SQLite only: the raw connection, for tests and tools that want prepared statements or PRAGMAs. */
  readonly sqlite: SQLite.Database;
  close(): Promise<void>;
}

/** Told about every statement kysely runs (metrics): its SQL text, how long it took, whether it failed. */
export type QueryObserver = (sqlText: string, seconds: number, failed: boolean) => void;

/** Opens the database the configuration names: PostgreSQL when `databaseUrl` is set, else the SQLite file. */
export async function openAppDatabase(opts: { databaseUrl?: string; file: string; onQuery?: QueryObserver }): Promise<DbHandle> {
  if (!opts.databaseUrl) return openDatabase(opts.file, opts.onQuery);
  const pool = await openPostgresPool(opts.databaseUrl, { log: queryLog(opts.onQuery, false).log });
  return {
    db: pool.db,
    dialect: 'postgres',
    get sqlite(): SQLite.Database {
      throw new Error('SQLite only: this app runs on PostgreSQL (DATABASE_URL)');
    },
    close: () => pool.end(),
  };
}

/** Opens DATA_DIR/aukcije.sqlite (or `:memory:`) with WAL, foreign keys and a busy timeout. */
export function openDatabase(file: string, onQuery?: QueryObserver): DbHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const Database = sqliteDriver();
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  registerSqlFunctions(sqlite);
  // Fresh statistics the way SQLite recommends for a long-lived connection (sqlite.org/lang_pragma.html#pragma_optimize):
  // at open with 0x10002 (every table checked, analysed where it may help, with a bounded analysis), then
  // plain `optimize` every hour. The public lists do not depend on them (their plans are fixed, migration
  // 2026-11-24-0100, tests/server/db/list-plans.test.ts); other queries may.
  sqlite.pragma('optimize = 0x10002');
  const timer = setInterval(() => {
    try {
      // Not inside someone's transaction (kysely's may span awaits): its rollback would take the statistics too.
      if (sqlite.open && !sqlite.inTransaction) sqlite.pragma('optimize');
    } catch {
      // busy: the next hour tries again
    }
  }, OPTIMIZE_EVERY_MS);
  timer.unref();
  const checkpoints = file === ':memory:' ? undefined : new WalCheckpoints(sqlite);
  const dialect = new ImmediateSqliteDialect({ database: new StatementCache(sqlite) }, () => checkpoints?.committed());
  const db = new Kysely<Database>({ dialect, ...queryLog(onQuery) });
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    async close() {
      clearInterval(timer);
      checkpoints?.stop();
      await db.destroy();
    },
  };
}

/**
 * kysely's SQLite driver, its transactions begun with BEGIN IMMEDIATE instead of a deferred BEGIN, and each
 * commit told to `afterCommit` (the WAL checkpoints, wal-checkpoints.ts). A deferred
 * transaction that reads and then writes (a bid reads the auction, then updates it) must upgrade its read
 * to a write; when another process wrote to the file in between, SQLite refuses at once with SQLITE_BUSY
 * ("database is locked"), without the busy timeout. IMMEDIATE takes the write lock first, waiting up to the
 * busy timeout for another process's transaction, and never upgrades. In one process nothing changes: kysely
 * runs one transaction at a time on its single connection (tests/reliability/sqlite-shared-file.test.ts).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  constructor(
    settings: SqliteDialectConfig,
    private readonly afterCommit: () => void,
  ) {
    super(settings);
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
    this.afterCommit();
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    private readonly afterCommit: () => void,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings, this.afterCommit);
  }
}

/** How often a connection runs `PRAGMA optimize` after the one at open. */
export const OPTIMIZE_EVERY_MS = 3600_000;

/**
 * What kysely sees as its database: the better-sqlite3 connection, except that `prepare` hands back a
 * statement prepared earlier for the same SQL text. kysely prepares every statement it runs, and
 * preparing was ~9 % of the server's busy time under load (docs/performance.md, B1). Bounded, least
 * recently used first out; a statement still being iterated (`busy`) is never handed out twice, that
 * caller gets a fresh one. SQLite re-prepares a cached statement by itself after a schema change.
 */
export class StatementCache implements SqliteDatabase {
  readonly #statements = new Map<string, SQLite.Statement>();

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly max = 256,
  ) {}

  prepare(source: string): SQLite.Statement {
    const cached = this.#statements.get(source);
    if (cached) {
      if (cached.busy) return this.sqlite.prepare(source);
      // Map order is insertion order: move it to the end (most recently used).
      this.#statements.delete(source);
      this.#statements.set(source, cached);
      return cached;
    }
    const stmt = this.sqlite.prepare(source);
    this.#statements.set(source, stmt);
    if (this.#statements.size > this.max) this.#statements.delete(this.#statements.keys().next().value as string);
    return stmt;
  }

  close(): void {
    this.#statements.clear();
    this.sqlite.close();
  }
}

/**
 * kysely's `log` option: `onQuery` (metrics, METRICS_TOKEN) and, for benchmarks only (scripts/bench, B3),
 * BENCH_SQL_LOG=1, which writes every statement slower than BENCH_SQL_LOG_MS (default 1) to stderr as one JSON
 * line `{"bench_sql":ms,"sql":"..."}` (SQLite only). With neither, kysely gets no `log` option and times nothing.
 */
function queryLog(onQuery: QueryObserver | undefined, benchLog = true): Pick<KyselyConfig, 'log'> {
  const bench = benchLog && process.env.BENCH_SQL_LOG === '1';
  if (!bench && !onQuery) return {};
  const threshold = Number(process.env.BENCH_SQL_LOG_MS ?? 1);
  return {
    log(event) {
      onQuery?.(event.query.sql, event.queryDurationMillis / 1000, event.level === 'error');
      if (bench && event.queryDurationMillis >= threshold) {
        process.stderr.write(`${JSON.stringify({ bench_sql: event.queryDurationMillis, sql: event.query.sql, error: event.level === 'error' })}\n`);
      }
    },
  };
}

const provider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};

/**
 * Whether every migration is recorded as done: one read, no lock, no write. kysely's Migrator (creates its
 * tables if missing, takes its lock in a write transaction, reads the list) took 3–11 ms of a restart on a
 * busy machine (docs/performance.md, "B4 as users run it").
 */
async function allApplied(db: Kysely<Database>): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const done = new Set(rows.map((r) => r.name));
    const names = Object.keys(migrations);
    // Exactly ours: a migration this build does not know goes through the Migrator, which reports it.
    return done.size === names.length && names.every((name) => done.has(name));
  } catch {
    return false; // a new database: no kysely_migration table yet
  }
}

/** Runs every pending migration; throws on failure. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  if (await allApplied(db)) return;
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migracija nije uspela: ${failed?.migrationName ?? ''} ${String(error ?? '')}`);
  }
  // New indexes have no statistics until analysed: the same bounded check as at open (~20 ms at 20,000 auctions).
  // PostgreSQL's autovacuum analyses new tables and indexes by itself.
  if (results?.length && !isPostgres(db)) await sql`PRAGMA optimize = 0x10002`.execute(db);
}
