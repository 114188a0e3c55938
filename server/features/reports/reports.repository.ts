import { sql } from 'kysely';
import type { DbOrTx, ReportsTable } from '../../db/types';
import type { Insertable, Selectable } from 'kysely';
import type { ReportAction, ReportStatus, ReportTargetType } from '@shared/rules/reports';

export type ReportRow = Selectable<ReportsTable>;

/** A reported thing as it is now: its owner and the words that name it (title, content or first name). */
export interface TargetInfo {
  type: ReportTargetType;
  id: number;
  ownerId: number;
  ownerName: string;
  label: string;
}

const key = (type: string, id: number) => `${type}:${id}`;

/** The targets among `refs` that still exist, by `type:id`. One query per kind of target. */
export async function findTargets(db: DbOrTx, refs: Array<{ type: ReportTargetType; id: number }>): Promise<Map<string, TargetInfo>> {
  const ids = (t: ReportTargetType) => [...new Set(refs.filter((r) => r.type === t).map((r) => r.id))];
  const [auctions, comments, members] = [ids('auction'), ids('comment'), ids('member')];
  const [a, c, m] = await Promise.all([
    auctions.length
      ? db.selectFrom('auctions').innerJoin('users', 'users.id', 'auctions.seller_id').select(['auctions.id', 'auctions.title as label', 'users.id as owner_id', 'users.first_name as owner_name']).where('auctions.id', 'in', auctions).execute()
      : [],
    comments.length
      ? db.selectFrom('comments').innerJoin('users', 'users.id', 'comments.user_id').select(['comments.id', 'comments.content as label', 'users.id as owner_id', 'users.first_name as owner_name']).where('comments.id', 'in', comments).execute()
      : [],
    members.length ? db.selectFrom('users').select(['id', 'first_name as label', 'id as owner_id', 'first_name as owner_name']).where('id', 'in', members).execute() : [],
  ]);
  const out = new Map<string, TargetInfo>();
  const add = (type: ReportTargetType, rows: Array<{ id: number; label: string; owner_id: number; owner_name: string }>) => {
    for (const r of rows) out.set(key(type, r.id), { type, id: r.id, ownerId: r.owner_id, ownerName: r.owner_name, label: r.label });
  };
  add('auction', a);
  add('comment', c);
  add('member', m);
  return out;
}

export async function findTarget(db: DbOrTx, type: ReportTargetType, id: number): Promise<TargetInfo | undefined> {
  return (await findTargets(db, [{ type, id }])).get(key(type, id));
}

export { key as targetKey };

/** Whether `memberId` won an auction that `sellerId` sold (the condition of a `non_payment` report). */
export async function wonFrom(db: DbOrTx, memberId: number, sellerId: number): Promise<boolean> {
  const row = await db.selectFrom('auctions').select('id').where('winner_id', '=', memberId).where('seller_id', '=', sellerId).limit(1).executeTakeFirst();
  return !!row;
}

export function findOpenReport(db: DbOrTx, reporterId: number, type: ReportTargetType, targetId: number): Promise<ReportRow | undefined> {
  return db
    .selectFrom('reports')
    .selectAll()
    .where('reporter_id', '=', reporterId)
    .where('target_type', '=', type)
    .where('target_id', '=', targetId)
    .where('status', '=', 'open')
    .executeTakeFirst();
}

/** How many reports `reporterId` filed since `since` (ISO). */
export async function countReportsSince(db: DbOrTx, reporterId: number, since: string): Promise<number> {
  const row = await db
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('reporter_id', '=', reporterId)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function insertReport(db: DbOrTx, r: Insertable<ReportsTable>): Promise<ReportRow> {
  return db.insertInto('reports').values(r).returningAll().executeTakeFirstOrThrow();
}

export function findReport(db: DbOrTx, id: number): Promise<ReportRow | undefined> {
  return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface Closing {
  status: Exclude<ReportStatus, 'open'>;
  action: ReportAction;
  note: string;
  adminId: number;
  at: string;
}

/**
 * Closes open reports: the one `id`, or every open one on its target (`wholeTarget`). Conditional on `status =
 * 'open'`, so of two admins closing the same report one closes it and the other gets no row back.
 */
export function closeOpenReports(db: DbOrTx, report: Pick<ReportRow, 'id' | 'target_type' | 'target_id'>, wholeTarget: boolean, c: Closing): Promise<ReportRow[]> {
  let q = db
    .updateTable('reports')
    .set({ status: c.status, resolution_action: c.action, resolution_note: c.note, resolved_by: c.adminId, resolved_at: c.at })
    .where('status', '=', 'open');
  q = wholeTarget ? q.where('target_type', '=', report.target_type).where('target_id', '=', report.target_id) : q.where('id', '=', report.id);
  return q.returningAll().execute();
}

export interface ReportListRow extends ReportRow {
  reporter_name: string;
  admin_name: string | null;
}

/** One page of reports with `status` (none: every status), newest first, with the reporter's and the admin's names. */
export function listReports(db: DbOrTx, status: ReportStatus | undefined, limit: number, offset: number, onlyId?: number): Promise<ReportListRow[]> {
  let q = db
    .selectFrom('reports')
    .innerJoin('users as reporter', 'reporter.id', 'reports.reporter_id')
    .leftJoin('users as admin', 'admin.id', 'reports.resolved_by')
    .selectAll('reports')
    .select(['reporter.first_name as reporter_name', 'admin.first_name as admin_name']);
  if (status) q = q.where('reports.status', '=', status);
  if (onlyId !== undefined) q = q.where('reports.id', '=', onlyId);
  return q.orderBy('reports.id', 'desc').limit(limit).offset(offset).execute();
}

export async function countReports(db: DbOrTx, status: ReportStatus | undefined): Promise<number> {
  let q = db.selectFrom('reports').select((eb) => eb.fn.countAll<number>().as('n'));
  if (status) q = q.where('status', '=', status);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

/** How many reports (any status) each target among `refs` has, by `type:id`. */
export async function countsOnTargets(db: DbOrTx, refs: Array<{ type: ReportTargetType; id: number }>): Promise<Map<string, number>> {
  if (!refs.length) return new Map();
  const rows = await db
    .selectFrom('reports')
    .select(['target_type', 'target_id', sql<number>`count(*)`.as('n')])
    .where((eb) => eb.or(refs.map((r) => eb.and([eb('target_type', '=', r.type), eb('target_id', '=', r.id)]))))
    .groupBy(['target_type', 'target_id'])
    .execute();
  return new Map(rows.map((r) => [key(r.target_type, r.target_id), Number(r.n)]));
}
