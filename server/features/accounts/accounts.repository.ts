import { precompiled } from '../../db/precompiled';
import type { DbOrTx, NewUser, User, UserUpdate } from '../../db/types';

const userById = precompiled((db: DbOrTx, p: { id: number }) => db.selectFrom('users').selectAll().where('id', '=', p.id));

/** Runs on every request of a logged-in user (passport), so it is built and compiled once. */
export async function findUserById(db: DbOrTx, id: number): Promise<User | undefined> {
  return (await userById(db, { id }))[0];
}

/** E-mails are stored lower-cased, so equality is case-insensitive. */
export function findUserByEmail(db: DbOrTx, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function insertUser(db: DbOrTx, user: NewUser): Promise<User> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export async function updateUser(db: DbOrTx, id: number, patch: UserUpdate): Promise<void> {
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
}

/**
 * Links a Google identity to an account that has none, only while the account is still as the caller saw it
 * (verified or not, blocked or not): a conditional UPDATE, so two sign-ins racing for one e-mail (two nodes,
 * or two tabs) cannot both link, and a verification landing meanwhile is noticed. False when nothing changed.
 */
export async function linkGoogleSub(db: DbOrTx, id: number, verified: boolean, patch: UserUpdate): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set(patch)
    .where('id', '=', id)
    .where('google_sub', 'is', null)
    .where('blocked_at', 'is', null)
    .where('verified_at', verified ? 'is not' : 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Sets verified_at unless the account is already verified (the first verification's time stays). */
export async function markUserVerified(db: DbOrTx, id: number, at: string): Promise<void> {
  await db.updateTable('users').set({ verified_at: at }).where('id', '=', id).where('verified_at', 'is', null).execute();
}

export async function grantAdmins(db: DbOrTx, emails: string[]): Promise<void> {
  if (!emails.length) return;
  await db.updateTable('users').set({ is_admin: 1 }).where('email', 'in', emails).execute();
}

export function findUserByGoogleSub(db: DbOrTx, sub: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('google_sub', '=', sub).executeTakeFirst();
}
