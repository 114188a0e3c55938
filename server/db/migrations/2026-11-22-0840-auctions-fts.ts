import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Search (`q` of 3 or more characters) through an FTS5 trigram index of auctions.search_text instead of
 * scanning every open auction with `LIKE '%q%'` (docs/performance.md, B3). The index is external-content
 * (it stores no copy of the text) and the triggers keep it in step with auctions; the UPDATE trigger fires
 * only when search_text changes, so price, bid and status updates do not touch it.
 *
 * PostgreSQL has no FTS5: a pg_trgm GIN index over auctions.search_text serves the same substring search
 * (`search_text LIKE '%q%'` on the already normalised text), kept in step by PostgreSQL itself.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX auctions_search_trgm ON auctions USING gin (search_text gin_trgm_ops)`.execute(db);
    return;
  }
  await sql`CREATE VIRTUAL TABLE auctions_fts USING fts5(search_text, content='auctions', content_rowid='id', tokenize='trigram')`.execute(db);
  await sql`CREATE TRIGGER auctions_fts_ai AFTER INSERT ON auctions BEGIN
    INSERT INTO auctions_fts(rowid, search_text) VALUES (new.id, new.search_text);
  END`.execute(db);
  await sql`CREATE TRIGGER auctions_fts_ad AFTER DELETE ON auctions BEGIN
    INSERT INTO auctions_fts(auctions_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
  END`.execute(db);
  await sql`CREATE TRIGGER auctions_fts_au AFTER UPDATE OF search_text ON auctions BEGIN
    INSERT INTO auctions_fts(auctions_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
    INSERT INTO auctions_fts(rowid, search_text) VALUES (new.id, new.search_text);
  END`.execute(db);
  await sql`INSERT INTO auctions_fts(auctions_fts) VALUES ('rebuild')`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`DROP INDEX IF EXISTS auctions_search_trgm`.execute(db);
    return;
  }
  await sql`DROP TRIGGER IF EXISTS auctions_fts_au`.execute(db);
  await sql`DROP TRIGGER IF EXISTS auctions_fts_ad`.execute(db);
  await sql`DROP TRIGGER IF EXISTS auctions_fts_ai`.execute(db);
  await sql`DROP TABLE IF EXISTS auctions_fts`.execute(db);
}
