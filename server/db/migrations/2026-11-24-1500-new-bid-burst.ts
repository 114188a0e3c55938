import type { Kysely } from 'kysely';

/**
 * Issue 14 (B1auto): the seller's coalesced 'new_bid' notification counts its burst without reading the bids.
 *
 * `notifications.bids_before`: for a 'new_bid' notification, the auction's bid_count before the rows of the
 * request that created it; NULL for every other kind. A rewrite of the notification under the auction's lock
 * reads the burst as the auction's bid_count now minus this, where it used to count the auction's bids since the
 * notification was made (every bid of a hot auction, read row by row, once per accepted request). Notifications
 * made before this migration have NULL and are still counted the old way.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('bids_before', 'integer').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notifications').dropColumn('bids_before').execute();
}
