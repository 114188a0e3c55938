import type { DbOrTx, User } from '../../db/types';

/** Every user, oldest first (the admin list). */
export function listUsers(db: DbOrTx): Promise<User[]> {
  return db.selectFrom('users').selectAll().orderBy('id', 'asc').execute();
}

/** Sets or clears blocked_at. */
export async function setBlocked(db: DbOrTx, id: number, blockedAt: string | null): Promise<void> {
  await db.updateTable('users').set({ blocked_at: blockedAt }).where('id', '=', id).execute();
}
