import type { Kysely } from 'kysely';

/**
 * Issue 26: relisting an unsold auction.
 *
 * - auctions.relisted_from: the auction this one relists (NULL for a first listing; set to NULL when that one is
 *   deleted). Unique: an auction is relisted at most once, even by two requests at the same moment.
 * - auctions.relist_count: how many relists came before this auction in its chain (0 for a first listing).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auctions').addColumn('relisted_from', 'integer', (c) => c.references('auctions.id').onDelete('set null')).execute();
  await db.schema.alterTable('auctions').addColumn('relist_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('auctions_relisted_from').unique().on('auctions').column('relisted_from').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('auctions_relisted_from').execute();
  await db.schema.alterTable('auctions').dropColumn('relist_count').execute();
  await db.schema.alterTable('auctions').dropColumn('relisted_from').execute();
}
