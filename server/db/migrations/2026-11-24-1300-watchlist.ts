import type { Kysely } from 'kysely';

/**
 * Issue 14, watchlist and ending-soon alerts.
 *
 * - `watchlist`: one row per user and watched auction (the primary key is the card lists' per-user lookup of a
 *   page's ids); `created_at` is when the watch started (who was watching before an auction's ending-soon window
 *   opened). The (auction_id, created_at) index serves the detail's watch count and the alert's recipients.
 *   Rows go with their user or auction.
 * - `auctions.ending_soon_at`: when the ending-soon alert of the auction was sent; NULL until then. The closer
 *   claims an auction by setting it with a conditional UPDATE (… WHERE ending_soon_at IS NULL), so the alert
 *   goes out exactly once across nodes and restarts. No index of its own: the closer's tick reads the open
 *   auctions by end through (status, end_date, …) (migration 2026-11-24-0100), and the claimed ones it steps
 *   over are only those inside their window.
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
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auctions').dropColumn('ending_soon_at').execute();
  await db.schema.dropTable('watchlist').ifExists().execute();
}
