import { sql } from 'kysely';
import type { DbOrTx, User } from '../../db/types';

export interface UserFilter {
  /** Already normalised with normaliseForSearch and LIKE-escaped; matched as a substring. */
  search?: string;
}

/**
 * Users whose first name or e-mail contains the search, compared through search_norm (the auction search's
 * normaliser, registered in server/db/sql-functions.ts): any case, with or without diacritics.
 * A scan of users: an admin's occasional search over a table of people, not a hot path.
 */
function usersQuery(db: DbOrTx, f: UserFilter) {
  let q = db.selectFrom('users');
  if (f.search) {
    const pattern = `%${f.search}%`;
    q = q.where((eb) =>
      eb.or([
        sql<boolean>`search_norm(users.first_name) like ${pattern} escape '\\'`,
        sql<boolean>`search_norm(users.email) like ${pattern} escape '\\'`,
      ]),
    );
  }
  return q;
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

/** Sets or clears blocked_at. */
export async function setBlocked(db: DbOrTx, id: number, blockedAt: string | null): Promise<void> {
  await db.updateTable('users').set({ blocked_at: blockedAt }).where('id', '=', id).execute();
}
