/**
 * The bid's lock of its auction on PostgreSQL (bids.repository.ts lockAuction): FOR NO KEY UPDATE. Bids on one
 * auction still take turns (a second lock of the row waits), but a row that only points at the auction, written
 * by another transaction (here a watch and a comment: their foreign-key checks take FOR KEY SHARE), no longer
 * waits for the bid's commit. PostgreSQL only: SQLite has one writer and no row locks.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppDatabase, type DbHandle } from '../../../server/db/connection';
import type { DbOrTx } from '../../../server/db/types';
import { lockAuction } from '../../../server/features/bids/bids.repository';
import { isoAt } from '../../../server/lib/time';
import { createTestDatabase, databaseUrl, dropTestDatabase, onPostgres } from '../../support/pg';
import { insertAuction, insertUser } from '../../support/reliability-server';

describe.skipIf(!onPostgres)("a bid's lock of its auction [PostgreSQL only: SQLite has no row locks]", () => {
  let name: string;
  let h: DbHandle;
  let auctionId: number;
  let sellerId: number;
  let bidderId: number;
  let watcherId: number;

  beforeAll(async () => {
    name = await createTestDatabase();
    h = await openAppDatabase({ databaseUrl: databaseUrl(name), file: '' });
    sellerId = (await insertUser(h, 'Prodavac Brava', 'x')).id;
    bidderId = (await insertUser(h, 'Licitant Brava', 'x')).id;
    watcherId = (await insertUser(h, 'Posmatrac Brava', 'x')).id;
    auctionId = await insertAuction(h, sellerId, 'Sat na bravi', Date.now() + 3_600_000);
  });
  afterAll(async () => {
    await h?.db.destroy();
    if (name) await dropTestDatabase(name);
  });

  /** Runs `fn` in a transaction of its own that gives up on a lock after `ms`; resolves to the error, if any. */
  const underTimeout = (ms: number, fn: (tx: DbOrTx) => Promise<unknown>) =>
    h.db
      .transaction()
      .execute(async (tx) => {
        await sql.raw(`set local lock_timeout = '${ms}ms'`).execute(tx);
        await fn(tx);
      })
      .then(
        () => null,
        (err: unknown) => err as Error,
      );

  it('lets a watch and a comment on the auction commit while a bid holds it, and still makes a second bid wait', async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const bid = h.db.transaction().execute(async (tx) => {
      expect((await lockAuction(tx, auctionId, bidderId))?.id).toBe(auctionId);
      locked();
      await released;
    });
    try {
      await isLocked;
      const watch = await underTimeout(2000, (tx) =>
        tx.insertInto('watchlist').values({ user_id: watcherId, auction_id: auctionId, created_at: isoAt(Date.now()) }).execute(),
      );
      expect(watch, 'a watch of the auction waited for the bid').toBeNull();
      const comment = await underTimeout(2000, (tx) =>
        tx.insertInto('comments').values({ auction_id: auctionId, user_id: watcherId, content: 'Da li je ispravan?', created_at: isoAt(Date.now()) }).execute(),
      );
      expect(comment, 'a comment on the auction waited for the bid').toBeNull();
      // Another bid on the same auction waits for this one: its lock times out.
      const second = await underTimeout(300, (tx) => lockAuction(tx, auctionId, watcherId));
      expect(second?.message).toMatch(/lock timeout/);
    } finally {
      release();
      await bid;
    }
    const watched = await h.db.selectFrom('watchlist').select('auction_id').where('user_id', '=', watcherId).execute();
    expect(watched).toEqual([{ auction_id: auctionId }]);
  });
});
