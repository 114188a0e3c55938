/**
 * Migration 2026-11-26-0400 (issue 28) on a database that already holds auctions, on SQLite and on PostgreSQL
 * (a database of its own in both runs): every existing auction gets city_norm (its city normalised for search, so
 * `city=` finds it in any spelling), the saved-search tables start empty, and it goes down and up again.
 */
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../server/db/connection';
import { migrations } from '../../../server/db/migrations';
import { migrationHandles } from '../../support/migration-handles';

const MINE = '2026-11-26-0400-saved-searches';
const provider = { getMigrations: async () => Object.fromEntries(Object.keys(migrations).filter((n) => n < MINE).map((n) => [n, migrations[n]!])) };
const full = { getMigrations: async () => migrations };
const handles = migrationHandles();
afterAll(() => handles.cleanup());

async function check(h: DbHandle) {
  const db = h.db;
  expect((await new Migrator({ db, provider }).migrateToLatest()).error).toBeUndefined();
  const now = new Date().toISOString();
  const seller = await db
    .insertInto('users')
    .values({ first_name: 'P', email: 'p@example.com', phone_number: '', city: '', password_hash: null, google_sub: null, verified_at: now, blocked_at: null, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const city of ['Niš', 'Ниш', 'Novi Sad']) {
    await sql`insert into auctions (seller_id, title, description, category, city, phone_number, starting_price, current_price, bid_count, end_date, original_end_date, status, winner_id, search_text, created_at)
      values (${seller.id}, 'Predmet', 'Opis', 'other', ${city}, '0641234567', 1000, 1000, 0, ${now}, ${now}, 'active', null, 'predmet opis', ${now})`.execute(db);
  }
  const up = await new Migrator({ db, provider: full }).migrateToLatest();
  expect(up.error).toBeUndefined();
  expect(up.results?.map((r) => [r.migrationName, r.status])).toContainEqual([MINE, 'Success']);
  expect((await db.selectFrom('auctions').select(['city', 'city_norm']).orderBy('id').execute()).map((r) => r.city_norm)).toEqual(['nis', 'nis', 'novi sad']);
  expect(await db.selectFrom('saved_searches').selectAll().execute()).toEqual([]);
  expect((await new Migrator({ db, provider: full }).migrateDown()).error).toBeUndefined();
  expect((await new Migrator({ db, provider: full }).migrateToLatest()).error).toBeUndefined();
}

describe('migration 2026-11-26-0400 (price and city filters, saved searches)', () => {
  it('fills city_norm of the auctions before it, on SQLite', async () => {
    await check(await handles.sqlite());
  });

  it('fills city_norm of the auctions before it, on PostgreSQL', async () => {
    await check(await handles.postgres());
  });
});
