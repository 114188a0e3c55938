import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Issue 30 (B2): a manual bid's notifications leave its transaction. The bid's transaction writes one
 * `bid_notices` row (what the notifications need, as JSON) instead of the notifications, mails and counts, so the
 * `bid:placed` broadcast goes out a notification's work earlier; right after it, and before the bid's answer,
 * a second transaction claims the auction's notices in id order (deleting them) and writes the notifications.
 * A notice left by a crash between the two is delivered at the next start or poll (bid-notices.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const id = (c: ColumnDefinitionBuilder) => (isPostgres(db) ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('bid_notices')
    .addColumn('id', 'integer', id)
    .addColumn('auction_id', 'integer', (c) => c.notNull().references('auctions.id').onDelete('cascade'))
    .addColumn('notice', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bid_notices_auction').on('bid_notices').columns(['auction_id', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bid_notices').ifExists().execute();
}
