/**
 * Issue 29: after PostgreSQL was out of reach, the pool serves again without a restart. A transaction whose
 * COMMIT dies with its connection must still give that connection back: kysely releases it on a failed
 * rollback but not on a failed commit, so transactUnlessReadOnly rolls back after a failed commit. With a
 * pool of one, a leaked connection would make every later query wait for the connect timeout and fail.
 * PostgreSQL only: SQLite has no connection to lose.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openPostgresPool } from '../../../server/db/postgres';
import { transactUnlessReadOnly } from '../../../server/db/transactions';
import { isDatabaseUnavailable } from '../../../server/db/unavailable';
import { startCuttableProxy } from '../../support/faults';
import { createTestDatabase, databaseUrl, dropTestDatabase, onPostgres, TEST_DATABASE_URL } from '../../support/pg';

describe.skipIf(!onPostgres)('the PostgreSQL pool after a cut [PostgreSQL only: SQLite has no connection to lose]', () => {
  it('a transaction whose commit is cut gives its connection back: a pool of one serves again at once', async () => {
    const name = await createTestDatabase();
    const pg = new URL(TEST_DATABASE_URL);
    const proxy = await startCuttableProxy(pg.hostname, Number(pg.port || 5432));
    const pool = await openPostgresPool(proxy.via(databaseUrl(name)), { max: 1 });
    try {
      const failed = await transactUnlessReadOnly(
        pool.db,
        async (tx) => {
          await sql`select 1`.execute(tx);
          proxy.cut();
          return 1;
        },
        () => true,
      ).catch((err: unknown) => err);
      expect(isDatabaseUnavailable(failed), String(failed)).toBe(true);
      // Still away: answered at once, as unavailable.
      await expect(sql`select 1`.execute(pool.db)).rejects.toSatisfy(isDatabaseUnavailable);
      proxy.restore();
      const t0 = Date.now();
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(pool.db);
      expect(rows).toEqual([{ one: 1 }]);
      expect(Date.now() - t0).toBeLessThan(2000);
    } finally {
      await pool.end();
      await proxy.close();
      await dropTestDatabase(name);
    }
  });
});
