import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Issue 25: "Kupi odmah" and the hidden reserve (docs/bidding.md).
 *
 * - auctions.buy_now_price, auctions.reserve_price: whole dinars, NULL when the seller set none.
 * - auctions.outcome: how an ended auction ended ('sold', 'unsold', 'reserve_not_met'), NULL while open. Filled
 *   here for the auctions that ended before it: 'sold' with a winner, 'unsold' without (there was no reserve).
 * - bids.buy_now: 1 for the one row a "Kupi odmah" writes (at the buy-now price), 0 otherwise.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const big = isPostgres(db) ? 'bigint' : 'integer';
  await db.schema.alterTable('auctions').addColumn('buy_now_price', big).execute();
  await db.schema.alterTable('auctions').addColumn('reserve_price', big).execute();
  await db.schema.alterTable('auctions').addColumn('outcome', 'text').execute();
  await sql`alter table bids add column buy_now integer not null default 0`.execute(db);
  await sql`update auctions set outcome = case when winner_id is not null then 'sold' else 'unsold' end where status = 'ended'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bids').dropColumn('buy_now').execute();
  await db.schema.alterTable('auctions').dropColumn('outcome').execute();
  await db.schema.alterTable('auctions').dropColumn('reserve_price').execute();
  await db.schema.alterTable('auctions').dropColumn('buy_now_price').execute();
}
