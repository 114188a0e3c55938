import { isPostgres } from '../../db/dialect';
import type { Database, DbOrTx, MailQueueTable } from '../../db/types';
import type { Selectable, UpdateQueryBuilder, UpdateResult } from 'kysely';
import { precompiled } from '../../db/precompiled';
import type { EmailKind } from '@shared/rules/email-kinds';

export type QueuedMail = Selectable<MailQueueTable>;

/** The kinds a member turned off. */
export async function optedOutKinds(db: DbOrTx, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('email_optouts').select('kind').where('user_id', '=', userId).execute();
  return rows.map((r) => r.kind);
}

/** Turns each kind on (deletes its opt-out) or off (adds one); idempotent. */
export async function setEmailKinds(db: DbOrTx, userId: number, kinds: Partial<Record<EmailKind, boolean>>, now: string): Promise<void> {
  const on = Object.entries(kinds).filter(([, v]) => v === true).map(([k]) => k);
  const off = Object.entries(kinds).filter(([, v]) => v === false).map(([k]) => k);
  if (on.length) await db.deleteFrom('email_optouts').where('user_id', '=', userId).where('kind', 'in', on).execute();
  if (off.length) {
    await db
      .insertInto('email_optouts')
      .values(off.map((kind) => ({ user_id: userId, kind, created_at: now })))
      .onConflict((oc) => oc.columns(['user_id', 'kind']).doNothing())
      .execute();
  }
}

/** Whether the member still exists (a token outlives a deleted account). */
export async function userExists(db: DbOrTx, userId: number): Promise<boolean> {
  return !!(await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst());
}

const allowedRowOf = precompiled((db: DbOrTx, p: { userId: number; kind: string }) =>
  db
    .selectFrom('users as u')
    .select(['u.email', 'u.first_name', 'u.verified_at', 'u.blocked_at'])
    .select((eb) => eb.exists(eb.selectFrom('email_optouts as o').select('o.user_id').whereRef('o.user_id', '=', 'u.id').where('o.kind', '=', p.kind)).as('off'))
    .where('u.id', '=', p.userId),
);

/** Whether a mail of `kind` may go to the member now: verified, not blocked by an admin, kind not turned off. */
export async function mailAllowed(db: DbOrTx, userId: number, kind: string): Promise<{ email: string; firstName: string } | undefined> {
  const row = (await allowedRowOf(db, { userId, kind }))[0];
  if (!row || !row.verified_at || row.blocked_at || row.off === true || Number(row.off) === 1) return undefined;
  return { email: row.email, firstName: row.first_name };
}

type NewMail = Pick<QueuedMail, 'user_id' | 'auction_id' | 'kind' | 'message' | 'created_at' | 'send_after'> & { folded?: number };

export async function insertMail(db: DbOrTx, m: NewMail): Promise<void> {
  await db.insertInto('mail_queue').values({ ...m, folded: m.folded ?? 0 }).execute();
}

/** The newest outbid mail of a member and auction that was or will be sent (skipped ones do not count). */
function newestOutbidMail(db: DbOrTx, p: { userId: number; auctionId: number }) {
  return db
    .selectFrom('mail_queue')
    .where('user_id', '=', p.userId)
    .where('auction_id', '=', p.auctionId)
    .where('kind', '=', 'outbid')
    .where((eb) => eb.or([eb('outcome', 'is', null), eb('outcome', '=', 'sent')]))
    .orderBy('send_after', 'desc')
    .orderBy('id', 'desc')
    .limit(1);
}

const latestOutbidOf = precompiled((db: DbOrTx, p: { userId: number; auctionId: number }) => newestOutbidMail(db, p).selectAll());

export async function latestOutbidMail(db: DbOrTx, userId: number, auctionId: number): Promise<QueuedMail | undefined> {
  return (await latestOutbidOf(db, { userId, auctionId }))[0];
}

/** A waiting mail: not sent, not claimed, its time not come (a fold may still change it). */
const waiting = (q: UpdateQueryBuilder<Database, 'mail_queue', 'mail_queue', UpdateResult>, now: string) =>
  q.where('done_at', 'is', null).where('claimed_by', 'is', null).where('send_after', '>', now);

/** Folds one more notification into a waiting (unclaimed, unsent) folded mail; false when it is no longer waiting. */
export async function foldInto(db: DbOrTx, id: number, message: string, now: string): Promise<boolean> {
  const res = await waiting(db.updateTable('mail_queue').set((eb) => ({ message, fold_count: eb('fold_count', '+', 1) })).where('id', '=', id), now).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

const foldLatestOf = precompiled((db: DbOrTx, p: { userId: number; auctionId: number; message: string; now: string }) =>
  waiting(
    db
      .updateTable('mail_queue')
      .set((eb) => ({ message: p.message, fold_count: eb('fold_count', '+', 1) }))
      .where('id', '=', (eb) => newestOutbidMail(eb as unknown as DbOrTx, p).select('id'))
      .where('folded', '=', 1),
    p.now,
  ).returning('id'),
);

/**
 * Folds one more notification into the member's newest outbid mail of the auction when that one is a folded
 * mail still waiting (the common case inside a window): one statement instead of a read and an update. False
 * when there is none such (the caller then reads the newest and decides, queue.ts).
 */
export async function foldIntoLatest(db: DbOrTx, userId: number, auctionId: number, message: string, now: string): Promise<boolean> {
  return (await foldLatestOf(db, { userId, auctionId, message, now })).length === 1;
}

/**
 * Claims up to `limit` due mails for `node` until `leaseUntil`: unsent rows whose time has come and that no live
 * lease holds. PostgreSQL: the candidates are locked with SKIP LOCKED, so nodes claiming together take different
 * rows; SQLite has one writer, so the UPDATE is the lock.
 */
export async function claimDue(db: DbOrTx, node: string, now: string, leaseUntil: string, limit: number): Promise<QueuedMail[]> {
  let due = db
    .selectFrom('mail_queue')
    .select('id')
    .where('done_at', 'is', null)
    .where('send_after', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('send_after')
    .orderBy('id')
    .limit(limit);
  if (isPostgres(db)) due = due.forUpdate().skipLocked();
  return db
    .updateTable('mail_queue')
    .set((eb) => ({ claimed_by: node, claimed_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due)
    .where('done_at', 'is', null)
    .returningAll()
    .execute();
}

/** Ends a claimed mail (sent or skipped); false when the claim was lost (the lease ran out and another took it). */
export async function finishMail(db: DbOrTx, id: number, node: string, outcome: 'sent' | 'skipped', now: string): Promise<boolean> {
  const res = await db
    .updateTable('mail_queue')
    .set({ done_at: now, outcome, claimed_by: null, claimed_until: null })
    .where('id', '=', id)
    .where('claimed_by', '=', node)
    .where('done_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Frees a claimed mail after a failed attempt, to be tried again at `retryAt`. */
export async function releaseMail(db: DbOrTx, id: number, node: string, retryAt: string, error: string): Promise<void> {
  await db
    .updateTable('mail_queue')
    .set({ claimed_by: null, claimed_until: null, send_after: retryAt, last_error: error.slice(0, 500) })
    .where('id', '=', id)
    .where('claimed_by', '=', node)
    .where('done_at', 'is', null)
    .execute();
}

/** What a mail needs at sending time: the auction's title and whether the member leads it now. */
export async function auctionForMail(db: DbOrTx, auctionId: number, userId: number): Promise<{ title: string; leads: boolean } | undefined> {
  const row = await db
    .selectFrom('auctions as a')
    .select('a.title')
    .select((eb) => eb.selectFrom('bids').select('bidder_id').whereRef('bids.auction_id', '=', 'a.id').orderBy('amount', 'desc').orderBy('id').limit(1).as('leader_id'))
    .where('a.id', '=', auctionId)
    .executeTakeFirst();
  return row ? { title: row.title, leads: Number(row.leader_id) === userId } : undefined;
}


/** Deletes mails that ended (sent or skipped) before `before`: the queue does not grow forever. */
export async function pruneDoneMails(db: DbOrTx, before: string): Promise<void> {
  await db.deleteFrom('mail_queue').where('done_at', 'is not', null).where('done_at', '<', before).execute();
}
