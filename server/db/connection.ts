import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type KyselyConfig, type MigrationProvider } from 'kysely';
import { migrations } from './migrations/index';
import type { Database } from './types';

export interface DbHandle {
  db: Kysely<Database>;
  /** The raw connection, for the few hot paths (session store) that want prepared statements. */
  sqlite: SQLite.Database;
  close(): Promise<void>;
}

/** Opens DATA_DIR/aukcije.sqlite (or `:memory:`) with WAL, foreign keys and a busy timeout. */
export function openDatabase(file: string): DbHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), ...benchSqlLog() });
  return {
    db,
    sqlite,
    async close() {
      await db.destroy();
    },
  };
}

/**
 * Benchmarks only (scripts/bench, B3): BENCH_SQL_LOG=1 writes every statement slower than
 * BENCH_SQL_LOG_MS (default 1) to stderr as one JSON line `{"bench_sql":ms,"sql":"..."}`.
 * Off (the default), kysely gets no `log` option and times nothing.
 */
function benchSqlLog(): Pick<KyselyConfig, 'log'> {
  if (process.env.BENCH_SQL_LOG !== '1') return {};
  const threshold = Number(process.env.BENCH_SQL_LOG_MS ?? 1);
  return {
    log(event) {
      if (event.queryDurationMillis >= threshold) {
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

/** Runs every pending migration; throws on failure. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migracija nije uspela: ${failed?.migrationName ?? ''} ${String(error ?? '')}`);
  }
}
