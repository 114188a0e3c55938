import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * A city's public count without counting (docs/performance.md, B3 SQL): `open_auction_city_counts` holds, per
 * (city_norm, category), the number of *listed* auctions, by the same membership rule as migration 1000's
 * `open_auction_counts` (status 'active', seller not blocked; end_date left out, it changes with the clock).
 * Counting a city's open auctions read one index entry per auction (a sixth of them for `city=nis`: 1.3 ms at
 * 20,000); the list now sums its few categories' rows and subtracts the listed ones already past end_date.
 *
 * Triggers keep it in step on insert, delete, an update of status/category/seller_id/city_norm, and a seller
 * being blocked or unblocked; rows without a city_norm (fixtures written around the service) match no city
 * filter and are not counted. Bids do not fire them.
 *
 * SQLite only. On PostgreSQL a statement that touches several auctions (the closer ending a batch, a seller
 * blocked, a bulk insert) would take the counter rows of several (city, category) pairs in its rows' order, next
 * to open_auction_counts' category rows, while a single create takes one of each: two such transactions can wait
 * on each other (a deadlock PostgreSQL breaks by failing one; seen in list-plans-pg.test.ts's bulk seed). SQLite
 * has one writer at a time, so its triggers cannot. PostgreSQL keeps counting a city's rows through its index.
 */

/** Whether the auction row `r` (new or old) is listed and has a city. */
const listed = (r: 'new' | 'old') => `${r}.city_norm IS NOT NULL AND ${r}.status = 'active' AND (SELECT blocked_at FROM users WHERE id = ${r}.seller_id) IS NULL`;

/** The counts from the auctions table (SQLite and PostgreSQL alike). */
const FILL = `INSERT INTO open_auction_city_counts (city_norm, category, n)
  SELECT city_norm, category, count(*) FROM auctions
  WHERE city_norm IS NOT NULL AND status = 'active' AND seller_id NOT IN (SELECT id FROM users WHERE blocked_at IS NOT NULL)
  GROUP BY city_norm, category`;

/** A blocked (sign -1) or unblocked (+1) seller's listed auctions, per city and category, added to the counts. */
const sellerDelta = (sign: string, when: string) => `INSERT INTO open_auction_city_counts (city_norm, category, n)
  SELECT city_norm, category, ${sign} count(*) FROM auctions
  WHERE seller_id = NEW.id AND status = 'active' AND city_norm IS NOT NULL AND ${when} GROUP BY city_norm, category
  ON CONFLICT (city_norm, category) DO UPDATE SET n = open_auction_city_counts.n + excluded.n`;

const STATEMENTS = [
  `CREATE TABLE open_auction_city_counts (city_norm TEXT NOT NULL, category TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (city_norm, category)) WITHOUT ROWID`,
  `CREATE TRIGGER open_city_ai AFTER INSERT ON auctions WHEN ${listed('new')} BEGIN
    INSERT INTO open_auction_city_counts (city_norm, category, n) VALUES (new.city_norm, new.category, 1)
      ON CONFLICT (city_norm, category) DO UPDATE SET n = n + 1;
  END`,
  `CREATE TRIGGER open_city_ad AFTER DELETE ON auctions WHEN ${listed('old')} BEGIN
    UPDATE open_auction_city_counts SET n = n - 1 WHERE city_norm = old.city_norm AND category = old.category;
  END`,
  // One trigger for both halves, so "out" always runs before "in" (the order of separate triggers is not defined).
  `CREATE TRIGGER open_city_au AFTER UPDATE OF status, category, seller_id, city_norm ON auctions BEGIN
    UPDATE open_auction_city_counts SET n = n - 1 WHERE city_norm = old.city_norm AND category = old.category AND ${listed('old')};
    INSERT INTO open_auction_city_counts (city_norm, category, n) SELECT new.city_norm, new.category, 1 WHERE ${listed('new')}
      ON CONFLICT (city_norm, category) DO UPDATE SET n = n + 1;
  END`,
  `CREATE TRIGGER open_city_block AFTER UPDATE OF blocked_at ON users
    WHEN (old.blocked_at IS NULL) <> (new.blocked_at IS NULL) BEGIN
    ${sellerDelta('-', 'new.blocked_at IS NOT NULL')};
    ${sellerDelta('', 'new.blocked_at IS NULL')};
  END`,
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  for (const s of STATEMENTS) await sql.raw(s).execute(db);
  await sql.raw(FILL).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  for (const t of ['open_city_block', 'open_city_au', 'open_city_ad', 'open_city_ai']) await sql.raw(`DROP TRIGGER IF EXISTS ${t}`).execute(db);
  await sql`DROP TABLE IF EXISTS open_auction_city_counts`.execute(db);
}
