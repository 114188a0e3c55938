import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

// Migrations take Kysely<any> so they stay frozen in time.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // SQLite's AUTOINCREMENT has no PostgreSQL form: there an identity column. Money reaches 10^12 and
  // sessions.expires is ms since the epoch, past PostgreSQL's 4-byte integer: bigint there (SQLite's
  // integer is 8 bytes already). On SQLite every statement is what it always was.
  const pg = isPostgres(db);
  const id = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  const big = pg ? 'bigint' : 'integer';
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', id)
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone_number', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'text')
    .addColumn('google_sub', 'text')
    .addColumn('verified_at', 'text')
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('blocked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // E-mails are stored lower-cased; the unique index makes "case-insensitive unique" hold.
  await db.schema.createIndex('users_email_unique').on('users').column('email').unique().execute();
  await db.schema.createIndex('users_google_sub_unique').on('users').column('google_sub').unique().execute();

  await db.schema
    .createTable('email_tokens')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_tokens_user').on('email_tokens').columns(['user_id', 'purpose']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('sid', 'text', (c) => c.primaryKey())
    .addColumn('sess', 'text', (c) => c.notNull())
    .addColumn('expires', big, (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires').execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('auctions')
    .addColumn('id', 'integer', id)
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('phone_number', 'text', (c) => c.notNull())
    .addColumn('starting_price', big, (c) => c.notNull())
    .addColumn('current_price', big, (c) => c.notNull())
    .addColumn('bid_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('original_end_date', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('winner_id', 'integer', (c) => c.references('users.id'))
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text')
    .execute();
  await db.schema.createIndex('auctions_status_end').on('auctions').columns(['status', 'end_date']).execute();
  await db.schema
    .createIndex('auctions_category_status_end')
    .on('auctions')
    .columns(['category', 'status', 'end_date'])
    .execute();
  await db.schema.createIndex('auctions_status_price').on('auctions').columns(['status', 'current_price']).execute();
  await db.schema.createIndex('auctions_seller').on('auctions').columns(['seller_id', 'end_date']).execute();

  await db.schema
    .createTable('auction_images')
    .addColumn('id', 'integer', id)
    .addColumn('auction_id', 'integer', (c) => c.notNull().references('auctions.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('card_path', 'text', (c) => c.notNull())
    .addColumn('large_path', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auction_images_auction').on('auction_images').columns(['auction_id', 'position']).execute();

  await db.schema
    .createTable('bids')
    .addColumn('id', 'integer', id)
    .addColumn('auction_id', 'integer', (c) => c.notNull().references('auctions.id').onDelete('cascade'))
    .addColumn('bidder_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('amount', big, (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // A second line of defence for "no two bids accepted at the same price".
  await db.schema.createIndex('bids_auction_amount_unique').on('bids').columns(['auction_id', 'amount']).unique().execute();
  await db.schema.createIndex('bids_bidder').on('bids').columns(['bidder_id', 'auction_id']).execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'integer', id)
    .addColumn('auction_id', 'integer', (c) => c.notNull().references('auctions.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_auction').on('comments').columns(['auction_id', 'id']).execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('auction_id', 'integer', (c) => c.references('auctions.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('notifications_user_unread').on('notifications').columns(['user_id', 'is_read']).execute();
  void sql;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['notifications', 'comments', 'bids', 'auction_images', 'auctions', 'sessions', 'email_tokens', 'users']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
