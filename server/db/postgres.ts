import { Kysely, PostgresDialect, type KyselyConfig } from 'kysely';
import type { Database } from './types';

/**
 * Opens a pool on DATABASE_URL with kysely's PostgresDialect. `pg` is imported here, on first use, so a
 * SQLite start (the default) never loads it, and the server bundle keeps it external.
 *
 * int8 (`bigint` money, `count(*)`) and numeric come back from `pg` as strings by default, because they can
 * exceed 2^53. The app's largest values are money (below 10^12) and row counts, so one global parser turns
 * them into JS numbers: every repository then reads the same types on both databases.
 */
export async function openPostgresPool(url: string, options: { max?: number; log?: KyselyConfig['log'] } = {}): Promise<{ db: Kysely<Database>; end(): Promise<void> }> {
  const pg = (await import('pg')).default;
  pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
  pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  // An idle client losing its connection (the server restarting) must not crash the process; the pool
  // replaces it on the next checkout.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(options.log ? { log: options.log } : {}) });
  return {
    db,
    // kysely's destroy() ends the pool.
    end: () => db.destroy(),
  };
}
