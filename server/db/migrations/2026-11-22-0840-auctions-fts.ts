import { sql, type Kysely } from 'kysely';

/**
 * Search (`q` of 3 or more characters) through an FTS5 trigram index of auctions.search_text instead of
 * scanning every open auction with `LIKE '%q%'` (docs/performance.md, B3). The index is external-content
 * (it stores no copy of the text) and the triggers keep it in step with auctions; the UPDATE trigger fires
 * only when search_text changes, so price, bid and status updates do not touch it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
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
  await sql`DROP TRIGGER IF EXISTS auctions_fts_au`.execute(db);
  await sql`DROP TRIGGER IF EXISTS auctions_fts_ad`.execute(db);
  await sql`DROP TRIGGER IF EXISTS auctions_fts_ai`.execute(db);
  await sql`DROP TABLE IF EXISTS auctions_fts`.execute(db);
}
