import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Issue 24: reports with a moderation queue, and the append-only audit log of admin actions.
 *
 * - `reports`: who reported what (`target_type` auction | comment | member and `target_id`, no foreign key: the
 *   target may be deleted and the report stays, its target then null in the queue), why, and how it was closed.
 *   `owner_id` is the target's owner when it was reported, so `block_owner` still knows whom to block once the
 *   target is gone. The partial unique index on (reporter_id, target_type, target_id) over open reports makes "one
 *   open report per reporter and target" hold under any concurrency; (status, id) reads the queue newest first,
 *   (target_type, target_id, status) finds every report on one target, (reporter_id, created_at) counts a member's
 *   reports of the last hour.
 * - `audit_log`: one row per admin action, written in the action's transaction. Append-only in the database
 *   itself: a trigger refuses every UPDATE and DELETE (and, on PostgreSQL, TRUNCATE), whoever connects.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('reports')
    .addColumn('id', 'integer', id)
    .addColumn('reporter_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolution_action', 'text')
    .addColumn('resolution_note', 'text')
    .addColumn('resolved_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema
    .createIndex('reports_open_once')
    .on('reports')
    .columns(['reporter_id', 'target_type', 'target_id'])
    .unique()
    .where(sql.ref('status'), '=', 'open')
    .execute();
  await db.schema.createIndex('reports_status_id').on('reports').columns(['status', 'id']).execute();
  await db.schema.createIndex('reports_target').on('reports').columns(['target_type', 'target_id', 'status']).execute();
  await db.schema.createIndex('reports_reporter_created').on('reports').columns(['reporter_id', 'created_at']).execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'integer', id)
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  if (pg) {
    await sql`CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'restrict_violation'; END $$`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`.execute(db);
  } else {
    await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  // Dropping the table drops its triggers; the log's rows go with it (a deliberate schema change, not an edit).
  await db.schema.dropTable('audit_log').ifExists().execute();
  if (isPostgres(db)) await sql`DROP FUNCTION IF EXISTS audit_log_append_only()`.execute(db);
  await db.schema.dropTable('reports').ifExists().execute();
}
