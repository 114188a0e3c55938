import type { Transaction } from 'kysely';
import type { Database, Db } from './types';

/**
 * Runs `fn` in a transaction that is committed when `wrote(result)` says it wrote something and rolled back
 * otherwise (or when `fn` throws). A transaction that only took a row lock (PostgreSQL's SELECT … FOR UPDATE)
 * has written WAL for the lock, so its COMMIT waits for a WAL flush before the lock is released; its ROLLBACK
 * does not wait. On a hot auction every refused bid is such a transaction, one after another on the same row
 * lock (docs/performance.md, B1pg). On SQLite a read-only transaction ends the same either way.
 */
export async function transactUnlessReadOnly<T>(db: Db, fn: (tx: Transaction<Database>) => Promise<T>, wrote: (result: T) => boolean): Promise<T> {
  const tx = await db.startTransaction().execute();
  let result: T;
  try {
    result = await fn(tx);
  } catch (err) {
    await tx.rollback().execute().catch(() => undefined);
    throw err;
  }
  if (!wrote(result)) {
    await tx.rollback().execute();
    return result;
  }
  try {
    await tx.commit().execute();
  } catch (err) {
    // kysely releases the connection on a failed rollback but not on a failed commit (a connection cut
    // under it): without this, every such commit would keep one of the pool's connections for good.
    await tx.rollback().execute().catch(() => undefined);
    throw err;
  }
  return result;
}
