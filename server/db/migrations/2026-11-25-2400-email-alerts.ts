import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Issue 27, e-mail alerts.
 *
 * - `email_optouts`: one row per member and e-mail kind they turned off (a missing row means on), so a new member
 *   and a kind added later are on without a backfill.
 * - `mail_queue`: a mail to send, written in the same transaction as its notification and sent by the worker
 *   after the commit. A worker claims due rows (`claimed_by`, `claimed_until`: a lease, so a crashed node's rows
 *   come back) and ends them with `done_at` and `outcome` ('sent' or 'skipped'); a failure frees the row with a
 *   later `send_after` (back-off). `folded`: an outbid mail standing for the outbid notifications of one window,
 *   sent at its end only while the member still does not lead. The (done_at, send_after) index serves the
 *   claim; (user_id, auction_id, kind, send_after) the outbid window's lookup.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('email_optouts')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_optouts_pkey', ['user_id', 'kind'])
    .execute();
  await db.schema
    .createTable('mail_queue')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('auction_id', 'integer', (c) => c.references('auctions.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('fold_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('folded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('send_after', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('done_at', 'text')
    .addColumn('outcome', 'text')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema.createIndex('mail_queue_due').on('mail_queue').columns(['done_at', 'send_after']).execute();
  await db.schema.createIndex('mail_queue_window').on('mail_queue').columns(['user_id', 'auction_id', 'kind', 'send_after']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_queue').ifExists().execute();
  await db.schema.dropTable('email_optouts').ifExists().execute();
}
