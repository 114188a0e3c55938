import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';
import { normaliseForSearch } from '@shared/rules/search';

/**
 * Issue 28: the list's price and city filters, and saved searches.
 *
 * - `auctions.city_norm`: normaliseForSearch(city), what `city=` is compared with (case, diacritics and script
 *   alike). Written by createAuction; filled here for existing rows (one UPDATE per distinct city). NULL only for
 *   rows written around the service (test fixtures): they match no city filter.
 * - Two indexes ordered like the list's sorts with the city as their leading equality, so a city's page walks its
 *   own auctions (no temporary B-tree, no read of every open auction): (city_norm, status, end_date, id,
 *   seller_id) and (city_norm, status, current_price, id, end_date, seller_id). A price range needs no index of
 *   its own: the price sorts walk the existing (status, current_price, id, …) index from the range's start, the
 *   end-date sorts keep walking theirs and test the price of each row they step on.
 * - `saved_searches`: a member's criteria (`q`, `category`, `min_price`, `max_price`, `city` as given, with
 *   `q_text` and `city_norm` normalised for matching) and the hourly fold's state (`last_notified_at`,
 *   `pending_count`, `pending_auction_id`). The matcher reads the distinct texts from the q_text index, tests them
 *   against the new auction's text, and reads only the searches whose text it contains (or that have none).
 * - `saved_search_jobs`: one row per created auction, written in the auction's transaction and claimed (deleted)
 *   by the matcher after the commit, so creating never waits for the matching.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  const big = pg ? 'bigint' : 'integer';
  await db.schema.alterTable('auctions').addColumn('city_norm', 'text').execute();
  const cities = await db.selectFrom('auctions').select('city').distinct().execute();
  for (const { city } of cities as { city: string }[]) {
    await db.updateTable('auctions').set({ city_norm: normaliseForSearch(city) }).where('city', '=', city).execute();
  }
  await sql`CREATE INDEX auctions_open_city_end ON auctions (city_norm, status, end_date, id, seller_id)`.execute(db);
  await sql`CREATE INDEX auctions_open_city_price ON auctions (city_norm, status, current_price, id, end_date, seller_id)`.execute(db);
  await db.schema
    .createTable('saved_searches')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('q', 'text')
    .addColumn('q_text', 'text')
    .addColumn('category', 'text')
    .addColumn('min_price', big)
    .addColumn('max_price', big)
    .addColumn('city', 'text')
    .addColumn('city_norm', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_notified_at', 'text')
    .addColumn('pending_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pending_auction_id', 'integer', (c) => c.references('auctions.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('saved_searches_user').on('saved_searches').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('saved_searches_text').on('saved_searches').column('q_text').execute();
  await db.schema.createIndex('saved_searches_pending').on('saved_searches').columns(['pending_count', 'last_notified_at']).execute();
  await db.schema
    .createTable('saved_search_jobs')
    .addColumn('id', 'integer', id)
    .addColumn('auction_id', 'integer', (c) => c.notNull().references('auctions.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('saved_search_jobs').ifExists().execute();
  await db.schema.dropTable('saved_searches').ifExists().execute();
  await sql`DROP INDEX IF EXISTS auctions_open_city_price`.execute(db);
  await sql`DROP INDEX IF EXISTS auctions_open_city_end`.execute(db);
  await db.schema.alterTable('auctions').dropColumn('city_norm').execute();
}
