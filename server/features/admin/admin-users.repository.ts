import { sql } from 'kysely';
import { normaliseForSearch } from '@shared/rules/search';
import { isPostgres } from '../../db/dialect';
import type { DbOrTx, User } from '../../db/types';

export interface UserFilter {
  /** Already normalised with normaliseForSearch and LIKE-escaped; matched as a substring. */
  search?: string;
}

/** What users.search_text holds (migration 2026-11-24-0600): name and e-mail joined by U+0001, normalised. */
const SEARCH_TEXT = sql<string>`search_norm(users.first_name || char(1) || users.email)`;

/**
 * Users whose first name or e-mail contains the search, compared through search_norm (the auction search's
 * normaliser, registered in server/db/sql-functions.ts): any case, with or without diacritics. Name and
 * e-mail are joined by U+0001, which no search contains, so a match cannot straddle the two. A LIKE scan of
 * the stored users.search_text (computed here when missing; scripts/bench/admin-users-search.ts).
 */
function usersQuery(db: DbOrTx, f: UserFilter) {
  let q = db.selectFrom('users');
  // PostgreSQL has no search_norm: it matches the stored text, filled by fillSearchText just before.
  const text = isPostgres(db) ? sql<string>`users.search_text` : sql<string>`coalesce(users.search_text, ${SEARCH_TEXT})`;
  if (f.search) q = q.where(sql<boolean>`${text} like ${`%${f.search}%`} escape '\\'`);
  return q;
}

/**
 * Computes users.search_text where it is missing (new users, changed names or e-mails): the rows come from a
 * partial index, so this is a no-op read when nothing changed. The search itself falls back to computing
 * any row written in between.
 */
export async function fillSearchText(db: DbOrTx): Promise<void> {
  if (isPostgres(db)) return fillSearchTextInJs(db);
  await db.updateTable('users').set({ search_text: SEARCH_TEXT }).where('search_text', 'is', null).execute();
}

/** fillSearchText where the normalisation is JavaScript only (PostgreSQL): the same text search_norm gives. */
async function fillSearchTextInJs(db: DbOrTx): Promise<void> {
  const rows = await db.selectFrom('users').select(['id', 'first_name', 'email']).where('search_text', 'is', null).execute();
  for (const r of rows) {
    const text = normaliseForSearch(`${r.first_name}\u0001${r.email}`);
    // Only if still missing: a name changed meanwhile cleared it again (trigger) and is computed next time.
    await db.updateTable('users').set({ search_text: text }).where('id', '=', r.id).where('search_text', 'is', null).execute();
  }
}

/** Users matching the filter, oldest first (the admin list); every one without a limit. */
export function listUsers(db: DbOrTx, f: UserFilter = {}, limit?: number, offset = 0): Promise<User[]> {
  let q = usersQuery(db, f).selectAll().orderBy('id', 'asc');
  if (limit !== undefined) q = q.limit(limit).offset(offset);
  return q.execute();
}

export async function countUsers(db: DbOrTx, f: UserFilter = {}): Promise<number> {
  const row = await usersQuery(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * One page and the count of all matches. A search reads the table once (the count is a window over the
 * matches, computed before the page is cut); without one, the count is a plain count(*) of the id index.
 */
export async function pageUsers(db: DbOrTx, f: UserFilter, limit: number, offset: number): Promise<{ rows: User[]; count: number }> {
  if (!f.search) {
    const [count, rows] = await Promise.all([countUsers(db, f), listUsers(db, f, limit, offset)]);
    return { rows, count };
  }
  const rows = await usersQuery(db, f)
    .selectAll()
    .select(sql<number>`count(*) over ()`.as('match_count'))
    .orderBy('id', 'asc')
    .limit(limit)
    .offset(offset)
    .execute();
  // Past the last page there is no row to carry the count.
  const count = rows.length ? Number(rows[0].match_count) : offset > 0 ? await countUsers(db, f) : 0;
  return { rows: rows.map(({ match_count: _, ...u }) => u), count };
}

/** Sets or clears blocked_at. */
export async function setBlocked(db: DbOrTx, id: number, blockedAt: string | null): Promise<void> {
  await db.updateTable('users').set({ blocked_at: blockedAt }).where('id', '=', id).execute();
}
