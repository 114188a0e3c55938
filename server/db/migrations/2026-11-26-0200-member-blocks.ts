import type { Kysely } from 'kysely';

/**
 * Issue 24, a member's block list ("crna lista"): `member_blocks` holds one row per (blocker, blocked) pair, the
 * primary key, so "is the bidder blocked by this seller?" is one lookup of that key inside a bid's gate query
 * (bids.repository.ts) and a second block of the same member cannot be stored. (blocker_id, created_at) reads a
 * member's list newest first. Users are never deleted. The same statements on both dialects; times ISO text.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('member_blocks')
    .addColumn('blocker_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('blocked_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('member_blocks_pk', ['blocker_id', 'blocked_id'])
    .execute();
  await db.schema.createIndex('member_blocks_blocker_created').on('member_blocks').columns(['blocker_id', 'created_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('member_blocks').ifExists().execute();
}
