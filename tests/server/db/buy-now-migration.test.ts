/**
 * Migration 2026-11-25-2200 (issue 25) on a database that already holds auctions (SQLite file; PostgreSQL in
 * `node scripts/test-pg.mjs`, and in both runs on a PostgreSQL database of its own, so both dialects are
 * migrated every time): auctions that ended before it get `outcome` `sold` (with a winner) or `unsold`
 * (without); open ones keep null; the new columns are empty and bids.buy_now is 0.
 */
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../server/db/connection';
import { migrations } from '../../../server/db/migrations';
import { migrationHandles } from '../../support/migration-handles';

const MINE = '2026-11-25-2200-buy-now-reserve';
const before = Object.keys(migrations).filter((n) => n < MINE);
const provider = { getMigrations: async () => Object.fromEntries(before.map((n) => [n, migrations[n]!])) };
const full = { getMigrations: async () => migrations };

const handles = migrationHandles();
afterAll(() => handles.cleanup());

async function check(h: DbHandle) {
  const db = h.db;
  const first = await new Migrator({ db, provider }).migrateToLatest();
  expect(first.error).toBeUndefined();
  const now = new Date().toISOString();
  const user = (name: string) =>
    db.insertInto('users').values({ first_name: name, email: `${name}@example.com`, phone_number: '', city: '', password_hash: null, google_sub: null, verified_at: now, blocked_at: null, created_at: now }).returning('id').executeTakeFirstOrThrow();
  const seller = await user('prodavac');
  const winner = await user('kupac');
  // Inserted before the new columns exist: only the old ones (sql, so the new Database type does not add any).
  const auction = async (status: 'active' | 'ended', winnerId: number | null) =>
    (
      await sql<{ id: number }>`insert into auctions (seller_id, title, description, category, city, phone_number, starting_price, current_price, bid_count, end_date, original_end_date, status, winner_id, search_text, created_at)
        values (${seller.id}, 'Predmet', 'Opis', 'other', 'Niš', '0641234567', 1000, 1000, ${winnerId ? 1 : 0}, ${now}, ${now}, ${status}, ${winnerId}, 'predmet opis', ${now}) returning id`.execute(db)
    ).rows[0]!.id;
  const sold = await auction('ended', winner.id);
  const unsold = await auction('ended', null);
  const open = await auction('active', null);
  await sql`insert into bids (auction_id, bidder_id, amount, created_at) values (${sold}, ${winner.id}, 1010, ${now})`.execute(db);

  const second = await new Migrator({ db, provider: full }).migrateToLatest();
  expect(second.error).toBeUndefined();
  expect(second.results?.map((r) => [r.migrationName, r.status])).toContainEqual([MINE, 'Success']);
  const rows = await db.selectFrom('auctions').select(['id', 'outcome', 'buy_now_price', 'reserve_price']).orderBy('id').execute();
  expect(rows).toEqual([
    { id: sold, outcome: 'sold', buy_now_price: null, reserve_price: null },
    { id: unsold, outcome: 'unsold', buy_now_price: null, reserve_price: null },
    { id: open, outcome: null, buy_now_price: null, reserve_price: null },
  ]);
  expect((await db.selectFrom('bids').select('buy_now').execute()).map((b) => Number(b.buy_now))).toEqual([0]);
  // And back down, and up again.
  const down = await new Migrator({ db, provider: full }).migrateDown();
  expect(down.error).toBeUndefined();
  expect((await new Migrator({ db, provider: full }).migrateToLatest()).error).toBeUndefined();
}

describe('migration 2026-11-25-2200 (buy-now, reserve, outcome)', () => {
  it('fills outcome for auctions that ended before it, on SQLite', async () => {
    await check(await handles.sqlite());
  });

  it('fills outcome for auctions that ended before it, on PostgreSQL', async () => {
    await check(await handles.postgres());
  });
});
