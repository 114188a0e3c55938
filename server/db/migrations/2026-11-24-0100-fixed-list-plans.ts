import { sql, type Kysely } from 'kysely';

/**
 * Fixed plans for the public lists (issue 11, docs/performance.md, B3g). A database grown through the API has
 * no statistics, and without them SQLite took the end-date range for the most selective way into the open
 * auctions and sorted every one of them for `priceAsc`/`priceDesc` (~250 ms at 20,000 auctions). Now every
 * sort has an index ordered like it, the id tie-break included (an index's implicit rowid comes last, after
 * seller_id, so the earlier (…, end_date, seller_id) indexes could not serve `ORDER BY end_date, id`), and
 * holding what the filter tests (end_date, seller_id), so rows are dropped without reading the table:
 *
 * - (status, end_date, id, seller_id) and (category, status, end_date, id, seller_id): the end-date sorts,
 *   the count of listed-but-past-end auctions, the closer;
 * - (status, current_price, id, end_date, seller_id) and its category twin: the price sorts (the query
 *   tests end_date with a unary `+`, so the end-date range is never the cheaper-looking way in);
 * - (status, bid_count DESC, end_date, id, seller_id): the popular list's auctions with bids (most bids
 *   first, then soonest end) and without (bid_count = 0, soonest end), without a sort;
 * - users(id) of blocked users only: the lists' "seller not blocked" reads the few blocked users, not all.
 *
 * They replace the five (status|category, …) indexes of migrations 0001, 0310 and 0800.
 */
const DROPPED = ['auctions_status_end', 'auctions_category_status_end', 'auctions_status_price', 'auctions_status_end_seller', 'auctions_category_status_end_seller'];

const CREATED: [name: string, sql: string][] = [
  ['auctions_open_end', 'auctions (status, end_date, id, seller_id)'],
  ['auctions_open_category_end', 'auctions (category, status, end_date, id, seller_id)'],
  ['auctions_open_price', 'auctions (status, current_price, id, end_date, seller_id)'],
  ['auctions_open_category_price', 'auctions (category, status, current_price, id, end_date, seller_id)'],
  ['auctions_open_popular', 'auctions (status, bid_count DESC, end_date, id, seller_id)'],
  ['users_blocked', 'users (id) WHERE blocked_at IS NOT NULL'],
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, on] of CREATED) await sql.raw(`CREATE INDEX ${name} ON ${on}`).execute(db);
  for (const name of DROPPED) await sql.raw(`DROP INDEX IF EXISTS ${name}`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX auctions_status_end ON auctions (status, end_date)`.execute(db);
  await sql`CREATE INDEX auctions_category_status_end ON auctions (category, status, end_date)`.execute(db);
  await sql`CREATE INDEX auctions_status_price ON auctions (status, current_price)`.execute(db);
  await sql`CREATE INDEX auctions_status_end_seller ON auctions (status, end_date, seller_id)`.execute(db);
  await sql`CREATE INDEX auctions_category_status_end_seller ON auctions (category, status, end_date, seller_id)`.execute(db);
  for (const [name] of CREATED) await sql.raw(`DROP INDEX IF EXISTS ${name}`).execute(db);
}
