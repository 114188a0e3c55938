import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Exact list counts without counting (docs/performance.md, B3). The public list shows "open" auctions:
 * status 'active', end_date in the future, seller not blocked. Counting them at 100,000 auctions read
 * 100,000 index entries (11–18 ms per page request). Now the database keeps, in step with every write:
 *
 * - `open_auction_counts`: per category, the number of *listed* auctions (status 'active', seller not
 *   blocked; end_date left out because it changes with the clock, not with a write);
 * - `auctions_open_fts`: a trigram index (like auctions_fts, migration 0840) over the listed auctions only,
 *   so a search count is a count of index matches, without reading 6,000 auction rows to drop ended ones.
 *
 * The list then counts `listed − listed but already past end_date`. The second part is a range of the
 * (status, end_date) index holding only auctions between their end and the closer's update: normally none.
 *
 * Triggers keep both in step on insert, delete, an update of status/category/seller_id/search_text, and a
 * seller being blocked or unblocked. Bids (price, bid_count, end_date) do not fire them. Membership is
 * "status = 'active' and the seller's blocked_at is null" in every trigger, so an index 'delete' is only
 * ever sent for a row that was inserted (an external-content FTS5 index must not get a 'delete' for a row it
 * does not hold). Users are never deleted, so no trigger is needed for that.
 */

/** Whether the auction row `r` (new or old) is listed. */
const listed = (r: 'new' | 'old') => `${r}.status = 'active' AND (SELECT blocked_at FROM users WHERE id = ${r}.seller_id) IS NULL`;

/** Refills both structures from the auctions table (also used by the benchmark seeder after a bulk insert). */
export const REFILL_OPEN_LISTING_SQL = `
  DELETE FROM open_auction_counts;
  INSERT INTO open_auction_counts (category, n)
    SELECT category, count(*) FROM auctions
    WHERE status = 'active' AND seller_id NOT IN (SELECT id FROM users WHERE blocked_at IS NOT NULL)
    GROUP BY category;
  INSERT INTO auctions_open_fts(auctions_open_fts) VALUES ('delete-all');
  INSERT INTO auctions_open_fts (rowid, search_text)
    SELECT id, search_text FROM auctions
    WHERE status = 'active' AND seller_id NOT IN (SELECT id FROM users WHERE blocked_at IS NOT NULL);
`;

/** The insert trigger, by name: the benchmark seeder sets it aside during a bulk insert. */
export const OPEN_LISTING_INSERT_TRIGGER = 'open_listing_ai';

/**
 * PostgreSQL: the same counts, kept by plpgsql triggers with the same membership rule and the same firing
 * columns. The listed auctions' text index is a partial pg_trgm GIN index (status 'active'; a blocked
 * seller cannot be part of an index predicate, so the search drops those auctions by a join, as the
 * lists do). Counts are upserts, so concurrent writers of one category serialise on its row.
 */
export const REFILL_OPEN_LISTING_PG_SQL = `
  DELETE FROM open_auction_counts;
  INSERT INTO open_auction_counts (category, n)
    SELECT category, count(*) FROM auctions
    WHERE status = 'active' AND seller_id NOT IN (SELECT id FROM users WHERE blocked_at IS NOT NULL)
    GROUP BY category;
`;

const PG_STATEMENTS = [
  `CREATE TABLE open_auction_counts (category TEXT PRIMARY KEY, n BIGINT NOT NULL)`,
  `CREATE INDEX auctions_open_search_trgm ON auctions USING gin (search_text gin_trgm_ops) WHERE status = 'active'`,
  `CREATE FUNCTION open_listing_add(cat TEXT, delta BIGINT) RETURNS void LANGUAGE sql AS $$
    INSERT INTO open_auction_counts (category, n) VALUES (cat, delta)
    ON CONFLICT (category) DO UPDATE SET n = open_auction_counts.n + excluded.n
  $$`,
  `CREATE FUNCTION open_listing_listed(st TEXT, seller INTEGER) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT st = 'active' AND (SELECT blocked_at FROM users WHERE id = seller) IS NULL
  $$`,
  // One function for insert, delete and update, so "out" always runs before "in".
  `CREATE FUNCTION open_listing_auctions() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP <> 'INSERT' THEN
      IF open_listing_listed(OLD.status, OLD.seller_id) THEN PERFORM open_listing_add(OLD.category, -1); END IF;
    END IF;
    IF TG_OP <> 'DELETE' THEN
      IF open_listing_listed(NEW.status, NEW.seller_id) THEN PERFORM open_listing_add(NEW.category, 1); END IF;
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER ${OPEN_LISTING_INSERT_TRIGGER} AFTER INSERT ON auctions FOR EACH ROW EXECUTE FUNCTION open_listing_auctions()`,
  `CREATE TRIGGER open_listing_ad AFTER DELETE ON auctions FOR EACH ROW EXECUTE FUNCTION open_listing_auctions()`,
  `CREATE TRIGGER open_listing_au AFTER UPDATE OF status, category, seller_id ON auctions FOR EACH ROW EXECUTE FUNCTION open_listing_auctions()`,
  `CREATE FUNCTION open_listing_block() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF (OLD.blocked_at IS NULL) <> (NEW.blocked_at IS NULL) THEN
      INSERT INTO open_auction_counts (category, n)
        SELECT category, CASE WHEN NEW.blocked_at IS NULL THEN count(*) ELSE -count(*) END
        FROM auctions WHERE seller_id = NEW.id AND status = 'active' GROUP BY category
        ON CONFLICT (category) DO UPDATE SET n = open_auction_counts.n + excluded.n;
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER open_listing_block AFTER UPDATE OF blocked_at ON users FOR EACH ROW EXECUTE FUNCTION open_listing_block()`,
];

const STATEMENTS = [
  `CREATE TABLE open_auction_counts (category TEXT PRIMARY KEY, n INTEGER NOT NULL)`,
  `CREATE VIRTUAL TABLE auctions_open_fts USING fts5(search_text, content='auctions', content_rowid='id', tokenize='trigram')`,
  `CREATE TRIGGER ${OPEN_LISTING_INSERT_TRIGGER} AFTER INSERT ON auctions WHEN ${listed('new')} BEGIN
    INSERT INTO open_auction_counts (category, n) VALUES (new.category, 1) ON CONFLICT (category) DO UPDATE SET n = n + 1;
    INSERT INTO auctions_open_fts (rowid, search_text) VALUES (new.id, new.search_text);
  END`,
  `CREATE TRIGGER open_listing_ad AFTER DELETE ON auctions WHEN ${listed('old')} BEGIN
    UPDATE open_auction_counts SET n = n - 1 WHERE category = old.category;
    INSERT INTO auctions_open_fts (auctions_open_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
  END`,
  // One trigger for both halves, so "out" always runs before "in" (the order of separate triggers is not defined).
  `CREATE TRIGGER open_listing_au AFTER UPDATE OF status, category, seller_id, search_text ON auctions BEGIN
    UPDATE open_auction_counts SET n = n - 1 WHERE category = old.category AND ${listed('old')};
    INSERT INTO auctions_open_fts (auctions_open_fts, rowid, search_text) SELECT 'delete', old.id, old.search_text WHERE ${listed('old')};
    INSERT INTO open_auction_counts (category, n) SELECT new.category, 1 WHERE ${listed('new')}
      ON CONFLICT (category) DO UPDATE SET n = n + 1;
    INSERT INTO auctions_open_fts (rowid, search_text) SELECT new.id, new.search_text WHERE ${listed('new')};
  END`,
  `CREATE TRIGGER open_listing_block AFTER UPDATE OF blocked_at ON users
    WHEN (old.blocked_at IS NULL) <> (new.blocked_at IS NULL) BEGIN
    UPDATE open_auction_counts
      SET n = n - (SELECT count(*) FROM auctions a WHERE a.seller_id = new.id AND a.status = 'active' AND a.category = open_auction_counts.category)
      WHERE new.blocked_at IS NOT NULL;
    INSERT INTO auctions_open_fts (auctions_open_fts, rowid, search_text)
      SELECT 'delete', id, search_text FROM auctions WHERE seller_id = new.id AND status = 'active' AND new.blocked_at IS NOT NULL;
    INSERT INTO open_auction_counts (category, n)
      SELECT category, count(*) FROM auctions WHERE seller_id = new.id AND status = 'active' AND new.blocked_at IS NULL GROUP BY category
      ON CONFLICT (category) DO UPDATE SET n = n + excluded.n;
    INSERT INTO auctions_open_fts (rowid, search_text)
      SELECT id, search_text FROM auctions WHERE seller_id = new.id AND status = 'active' AND new.blocked_at IS NULL;
  END`,
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const s of PG_STATEMENTS) await sql.raw(s).execute(db);
    for (const s of REFILL_OPEN_LISTING_PG_SQL.split(';').map((x) => x.trim()).filter(Boolean)) await sql.raw(s).execute(db);
    return;
  }
  for (const s of STATEMENTS) await sql.raw(s).execute(db);
  for (const s of REFILL_OPEN_LISTING_SQL.split(';').map((x) => x.trim()).filter(Boolean)) await sql.raw(s).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`DROP TRIGGER IF EXISTS open_listing_block ON users`.execute(db);
    for (const t of ['open_listing_au', 'open_listing_ad', OPEN_LISTING_INSERT_TRIGGER]) await sql.raw(`DROP TRIGGER IF EXISTS ${t} ON auctions`).execute(db);
    for (const f of ['open_listing_block()', 'open_listing_auctions()', 'open_listing_listed(TEXT, INTEGER)', 'open_listing_add(TEXT, BIGINT)']) {
      await sql.raw(`DROP FUNCTION IF EXISTS ${f}`).execute(db);
    }
    await sql`DROP INDEX IF EXISTS auctions_open_search_trgm`.execute(db);
    await sql`DROP TABLE IF EXISTS open_auction_counts`.execute(db);
    return;
  }
  for (const t of ['open_listing_block', 'open_listing_au', 'open_listing_ad', OPEN_LISTING_INSERT_TRIGGER]) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${t}`).execute(db);
  }
  await sql`DROP TABLE IF EXISTS auctions_open_fts`.execute(db);
  await sql`DROP TABLE IF EXISTS open_auction_counts`.execute(db);
}
