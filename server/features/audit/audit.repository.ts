import type { DbOrTx } from '../../db/types';
import type { AuditAction, AuditTargetType } from '@shared/rules/reports';

export interface NewAuditEntry {
  admin_id: number;
  action: AuditAction;
  target_type: AuditTargetType;
  target_id: number;
  note?: string;
  created_at: string;
}

/**
 * Appends one row to the audit log. Call it with the action's own transaction, so the row and the action commit
 * or roll back together. The table takes no UPDATE or DELETE (triggers, migration 2026-11-26-0100).
 */
export async function appendAudit(tx: DbOrTx, e: NewAuditEntry): Promise<void> {
  await tx.insertInto('audit_log').values({ ...e, note: e.note ?? '' }).execute();
}

export interface AuditRow {
  id: number;
  admin_id: number;
  admin_name: string;
  action: string;
  target_type: string;
  target_id: number;
  note: string;
  created_at: string;
}

/** One page of the log, newest first (by id: the order of the commits' inserts). */
export function listAudit(db: DbOrTx, limit: number, offset: number): Promise<AuditRow[]> {
  return db
    .selectFrom('audit_log')
    .innerJoin('users', 'users.id', 'audit_log.admin_id')
    .select(['audit_log.id', 'audit_log.admin_id', 'users.first_name as admin_name', 'audit_log.action', 'audit_log.target_type', 'audit_log.target_id', 'audit_log.note', 'audit_log.created_at'])
    .orderBy('audit_log.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countAudit(db: DbOrTx): Promise<number> {
  const row = await db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}
