import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * The admin's user search (issue 11 §4) matches a substring of the normalised first name and e-mail. Computing
 * search_norm for every user on every search cost ~3 µs a row (0.3 s at 100,000 users on a busy machine;
 * scripts/bench/admin-users-search.ts); a stored copy is a plain LIKE scan.
 *
 * users.search_text = search_norm(first_name || char(1) || email), or NULL when not yet computed. Nothing
 * else has to maintain it: a trigger (plain SQL, so raw connections without search_norm can still write)
 * clears it when the name or e-mail changes, new users start with NULL, and the admin search fills the
 * NULL rows first (found through a partial index) and falls back to computing any it missed.
 *
 * On PostgreSQL (no search_norm there: the normalisation is JavaScript) the same column and index, and a
 * BEFORE UPDATE trigger that clears it; the admin search fills the NULL rows in JavaScript.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('search_text', 'text').execute();
  await sql`create index users_search_text_missing on users (id) where search_text is null`.execute(db);
  if (isPostgres(db)) {
    await sql`create function users_search_text_stale() returns trigger language plpgsql as $$
      begin new.search_text := null; return new; end $$`.execute(db);
    await sql`create trigger users_search_text_stale before update of first_name, email on users
      for each row execute function users_search_text_stale()`.execute(db);
    return;
  }
  await sql`create trigger users_search_text_stale after update of first_name, email on users
    begin update users set search_text = null where id = new.id; end`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists users_search_text_stale on users`.execute(db);
    await sql`drop function if exists users_search_text_stale()`.execute(db);
  } else {
    await sql`drop trigger if exists users_search_text_stale`.execute(db);
  }
  await sql`drop index if exists users_search_text_missing`.execute(db);
  await db.schema.alterTable('users').dropColumn('search_text').execute();
}
