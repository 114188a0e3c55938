import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Issue 23, ratings after a sale ("ocene").
 *
 * - `ratings`: one row per sale and rater (the unique (auction_id, rater_id) index makes "each once" hold under
 *   any concurrency). `rated_id` is the other party and `role` the rated member's role in that sale ('seller' |
 *   'buyer'). A rating outlives its auction: `auction_id` becomes NULL when the auction is deleted (ON DELETE SET
 *   NULL) and `auction_title` keeps the title; NULLs never collide in the unique index, and a deleted auction is
 *   no longer a sale, so nobody rates it again. The one answer of the rated member is `reply_content` and
 *   `reply_created_at` (NULL until then), written once by a conditional UPDATE. Users are never deleted.
 *   (rated_id, value) counts a member's score from the index alone; (rated_id, created_at) reads their ratings
 *   newest first.
 * - `auctions_winner` (winner_id, end_date): a member's purchases (GET /api/sales/, the profile's bought_count),
 *   as `auctions_seller` (seller_id, end_date) serves their sales.
 *
 * The same statements on both dialects but the id column (identity on PostgreSQL); times are ISO text on both.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('ratings')
    .addColumn('id', 'integer', id)
    .addColumn('auction_id', 'integer', (c) => c.references('auctions.id').onDelete('set null'))
    .addColumn('auction_title', 'text', (c) => c.notNull())
    .addColumn('rater_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('rated_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('reply_content', 'text')
    .addColumn('reply_created_at', 'text')
    .execute();
  await db.schema.createIndex('ratings_auction_rater').on('ratings').columns(['auction_id', 'rater_id']).unique().execute();
  await db.schema.createIndex('ratings_rated_value').on('ratings').columns(['rated_id', 'value']).execute();
  await db.schema.createIndex('ratings_rated_created').on('ratings').columns(['rated_id', 'created_at']).execute();
  await db.schema.createIndex('auctions_winner').on('auctions').columns(['winner_id', 'end_date']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('auctions_winner').ifExists().execute();
  await db.schema.dropTable('ratings').ifExists().execute();
}
