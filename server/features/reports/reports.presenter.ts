import type { AdminReport, ReportTarget } from '@shared/schemas/reports';
import type { ReportReason } from '@shared/rules/reports';
import { targetKey, type ReportListRow, type TargetInfo } from './reports.repository';

const LABEL_FIELD = { auction: 'title', comment: 'content', member: 'first_name' } as const;

function presentTarget(t: TargetInfo | undefined): ReportTarget | null {
  if (!t) return null;
  return { [LABEL_FIELD[t.type]]: t.label, owner: { id: t.ownerId, first_name: t.ownerName } };
}

/** A report as the admin's queue shows it; `targets` and `counts` by `type:id` (see findTargets, countsOnTargets). */
export function presentAdminReport(r: ReportListRow, targets: Map<string, TargetInfo>, counts: Map<string, number>): AdminReport {
  const k = targetKey(r.target_type, r.target_id);
  return {
    id: r.id,
    target_type: r.target_type,
    target_id: r.target_id,
    target: presentTarget(targets.get(k)),
    reason: r.reason as ReportReason,
    text: r.text,
    reporter: { id: r.reporter_id, first_name: r.reporter_name },
    status: r.status,
    created_at: r.created_at,
    resolved_at: r.resolved_at,
    resolution:
      r.resolution_action && r.resolved_by !== null
        ? { action: r.resolution_action, note: r.resolution_note ?? '', admin: { id: r.resolved_by, first_name: r.admin_name ?? '' } }
        : null,
    reports_on_target: counts.get(k) ?? 1,
  };
}
