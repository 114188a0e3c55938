import type { Insertable, Selectable } from 'kysely';
import { isPostgres } from '../../db/dialect';
import type { DbOrTx, SavedSearchesTable } from '../../db/types';

export type SavedSearchRow = Selectable<SavedSearchesTable>;

/** The created auction's job for the matcher, in the auction's own transaction (issue 28). */
export async function queueSavedSearchJob(tx: DbOrTx, auctionId: number, now: string): Promise<void> {
  await tx.insertInto('saved_search_jobs').values({ auction_id: auctionId, created_at: now }).execute();
}

/**
 * Claims up to `limit` jobs by deleting them: a job deleted by one worker (or node) returns for it alone, so each
 * created auction is matched once. Oldest first.
 */
export async function claimJobs(db: DbOrTx, limit: number): Promise<number[]> {
  const ids = db.selectFrom('saved_search_jobs').select('id').orderBy('id').limit(limit);
  const rows = await db.deleteFrom('saved_search_jobs').where('id', 'in', ids).returning('auction_id').execute();
  return rows.map((r) => r.auction_id);
}

/**
 * On PostgreSQL, locks the member's row: two saves of one member take turns, so the limit of 20 holds under any
 * concurrency (SQLite runs one write transaction at a time anyway).
 */
export async function lockMember(tx: DbOrTx, userId: number): Promise<void> {
  if (isPostgres(tx)) await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

export async function countOwn(db: DbOrTx, userId: number): Promise<number> {
  const row = await db.selectFrom('saved_searches').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertSavedSearch(tx: DbOrTx, values: Insertable<SavedSearchesTable>): Promise<SavedSearchRow> {
  return tx.insertInto('saved_searches').values(values).returningAll().executeTakeFirstOrThrow();
}

/** The member's saved searches, newest first. */
export function listOwn(db: DbOrTx, userId: number, limit: number, offset: number): Promise<SavedSearchRow[]> {
  return db.selectFrom('saved_searches').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

/** Deletes one of the member's own saved searches; false when it is not theirs or does not exist. */
export async function deleteOwn(db: DbOrTx, userId: number, id: number): Promise<boolean> {
  const res = await db.deleteFrom('saved_searches').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** What the matcher reads of a new auction. */
export interface MatchAuction {
  id: number;
  seller_id: number;
  title: string;
  category: string;
  current_price: number;
  city_norm: string | null;
  search_text: string;
}

export function findMatchAuction(db: DbOrTx, id: number): Promise<MatchAuction | undefined> {
  return db
    .selectFrom('auctions')
    .select(['id', 'seller_id', 'title', 'category', 'current_price', 'city_norm', 'search_text'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Every distinct search text (from the q_text index: no read of the searches themselves). */
export async function distinctTexts(db: DbOrTx): Promise<string[]> {
  const rows = await db.selectFrom('saved_searches').select('q_text').distinct().where('q_text', 'is not', null).execute();
  return rows.map((r) => r.q_text!);
}

/**
 * The saved searches whose criteria the auction meets, of members other than its seller who are not blocked. The
 * texts were tested already (`texts`: those the auction's search_text contains, as `instr` would); only searches
 * with one of them, or with none, are read (the q_text index), then tested on category, price and city. It is the
 * list's criteria turned round (the auction's values against each search's bounds); every candidate is then
 * confirmed with the list's own predicate (listShows), and the property test holds the two equal.
 */
export function candidatesFor(db: DbOrTx, a: MatchAuction, texts: string[]): Promise<SavedSearchRow[]> {
  return db
    .selectFrom('saved_searches as s')
    .selectAll('s')
    .where((eb) => (texts.length ? eb.or([eb('s.q_text', 'is', null), eb('s.q_text', 'in', texts)]) : eb('s.q_text', 'is', null)))
    .where('s.user_id', '!=', a.seller_id)
    .where((eb) =>
      eb.and([
        eb.or([eb('s.category', 'is', null), eb('s.category', '=', a.category)]),
        eb.or([eb('s.min_price', 'is', null), eb('s.min_price', '<=', a.current_price)]),
        eb.or([eb('s.max_price', 'is', null), eb('s.max_price', '>=', a.current_price)]),
        eb.or([eb('s.city_norm', 'is', null), eb('s.city_norm', '=', a.city_norm ?? '')]),
      ]),
    )
    .where('s.user_id', 'not in', (eb) => eb.selectFrom('users as u').select('u.id').where('u.blocked_at', 'is not', null))
    .orderBy('s.id')
    .execute();
}

/**
 * The hourly fold's gate: marks the search notified now when its last notification is older than `windowStart`
 * (or it has none). A conditional UPDATE, so of two nodes matching at once one notifies; false: inside the hour.
 */
export async function claimImmediate(tx: DbOrTx, id: number, now: string, windowStart: string): Promise<boolean> {
  const res = await tx
    .updateTable('saved_searches')
    .set({ last_notified_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_notified_at', 'is', null), eb('last_notified_at', '<=', windowStart)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** A match inside the hour: counted for the fold, the newest auction kept. */
export async function addPending(tx: DbOrTx, id: number, auctionId: number): Promise<void> {
  await tx
    .updateTable('saved_searches')
    .set((eb) => ({ pending_count: eb('pending_count', '+', 1), pending_auction_id: auctionId }))
    .where('id', '=', id)
    .execute();
}

/** Folds whose hour has ended (pending matches, last notification at or before `windowStart`). */
export function dueFolds(db: DbOrTx, windowStart: string, limit: number) {
  return db
    .selectFrom('saved_searches as s')
    .leftJoin('auctions as a', 'a.id', 's.pending_auction_id')
    .select(['s.id', 's.user_id', 's.q', 's.pending_count', 's.pending_auction_id', 'a.title as pending_title'])
    .where('s.pending_count', '>', 0)
    .where('s.last_notified_at', '<=', windowStart)
    .orderBy('s.id')
    .limit(limit)
    .execute();
}

/** Takes a due fold (compare-and-set on its count, so it is sent once) and opens the next hour. */
export async function claimFold(tx: DbOrTx, id: number, count: number, now: string): Promise<boolean> {
  const res = await tx
    .updateTable('saved_searches')
    .set({ pending_count: 0, pending_auction_id: null, last_notified_at: now })
    .where('id', '=', id)
    .where('pending_count', '=', count)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
