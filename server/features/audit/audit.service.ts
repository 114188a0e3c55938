import type { AppContext } from '../../context';
import type { Paged } from '@shared/schemas/auctions';
import type { PageQuery } from '@shared/schemas/sales';
import type { AuditEntry } from '@shared/schemas/reports';
import type { AuditAction, AuditTargetType } from '@shared/rules/reports';
import { pageOf } from '../../lib/paging';
import { countAudit, listAudit, type AuditRow } from './audit.repository';

function presentAudit(r: AuditRow): AuditEntry {
  return {
    id: r.id,
    admin: { id: r.admin_id, first_name: r.admin_name },
    action: r.action as AuditAction,
    target_type: r.target_type as AuditTargetType,
    target_id: r.target_id,
    note: r.note,
    created_at: r.created_at,
  };
}

/** GET /api/admin/audit-log/: every admin action, newest first, one page. */
export async function pageAuditLog(ctx: AppContext, query: PageQuery): Promise<Paged<AuditEntry>> {
  const { page, page_size: size } = query;
  const [count, rows] = await Promise.all([countAudit(ctx.db), listAudit(ctx.db, size, (page - 1) * size)]);
  return pageOf(count, page, size, rows.map(presentAudit));
}
