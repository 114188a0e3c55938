import { PostgresAdapter, type Kysely } from 'kysely';

/** The two databases the app runs on: SQLite in DATA_DIR (default) or PostgreSQL (DATABASE_URL). */
export type DialectName = 'sqlite' | 'postgres';

/**
 * Which database `db` (or a transaction of it) talks to. Read from kysely's adapter, which every
 * transaction shares with its database, so repositories and migrations learn the dialect from the handle
 * they were given rather than from a global (two apps on different dialects can run in one process: tests).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const isPostgres = (db: Kysely<any>): boolean => dialectOf(db) === 'postgres';

/** Whether `err` is a unique-constraint violation, on either database (by error code, never by message). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Whether `err` is a foreign-key violation (a row referring to one deleted meanwhile), on either database. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}
