import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Automatic bidding (issue 14): a bidder's hidden maximum per auction, and which bids a maximum wrote.
 *
 * auto_bids holds ONE row per (auction, bidder), re-used (max_amount, created_at, active, beaten_at) when a
 * beaten bidder sets a new maximum. Only the leader can hold an unbeaten maximum, so an auction has at most
 * one active row at any time: a partial unique index says so to the database too. `beaten_at` is when the
 * maximum was beaten (and its owner told, once). bids.auto marks a row written by a maximum (0/1).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('auto_bids')
    .addColumn('id', 'integer', id)
    .addColumn('auction_id', 'integer', (c) => c.notNull().references('auctions.id').onDelete('cascade'))
    .addColumn('bidder_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('max_amount', pg ? 'bigint' : 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('beaten_at', 'text')
    .addUniqueConstraint('auto_bids_auction_bidder', ['auction_id', 'bidder_id'])
    .execute();
  await sql`create unique index auto_bids_one_active on auto_bids (auction_id) where active = 1`.execute(db);
  await sql`alter table bids add column auto integer not null default 0`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bids').dropColumn('auto').execute();
  await db.schema.dropTable('auto_bids').ifExists().execute();
}
