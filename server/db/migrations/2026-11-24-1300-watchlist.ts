import { sql, type Kysely } from 'kysely';

/**
 * Issue 14, watchlist and ending-soon alerts.
 *
 * - `watchlist`: one row per user and watched auction (the primary key is the card lists' per-user lookup of a
 *   page's ids); `created_at` is when the watch started (who was watching before an auction's ending-soon window
 *   opened). The (auction_id, created_at) index serves the detail's watch count and the alert's recipients.
 *   Rows go with their user or auction.
 * - `auctions.ending_soon_at`: when the ending-soon alert of the auction was sent; NULL until then. The closer
 *   claims an auction by setting it with a conditional UPDATE (… WHERE ending_soon_at IS NULL), so the alert
 *   goes out exactly once across nodes and restarts. A partial index holds only the open auctions not yet
 *   claimed, ordered by end: the closer's tick reads the few whose window has opened, and the next one's end.
 *
 * The same statements on both dialects (no identity column, times are ISO text on both).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('watchlist')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('auction_id', 'integer', (c) => c.notNull().references('auctions.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('watchlist_pkey', ['user_id', 'auction_id'])
    .execute();
  await db.schema.createIndex('watchlist_auction').on('watchlist').columns(['auction_id', 'created_at']).execute();
  await db.schema.alterTable('auctions').addColumn('ending_soon_at', 'text').execute();
  await sql`create index auctions_ending_soon_due on auctions (end_date) where status = 'active' and ending_soon_at is null`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists auctions_ending_soon_due`.execute(db);
  await db.schema.alterTable('auctions').dropColumn('ending_soon_at').execute();
  await db.schema.dropTable('watchlist').ifExists().execute();
}
