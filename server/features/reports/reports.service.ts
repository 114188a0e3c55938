import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/dialect';
import type { DbOrTx, User } from '../../db/types';
import { notificationEvents, type DomainEvent, type NotificationChange } from '../../events';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import { unitOfWork } from '../../unit-of-work';
import { srv } from '@shared/texts/server';
import { reportTexts } from '@shared/texts/reports';
import { REPORTS_PER_HOUR, REPORT_WINDOW_MS } from '@shared/rules/reports';
import type { Paged } from '@shared/schemas/auctions';
import type { AdminReport, AdminReportsQuery, CreateReportInput, ReportCreatedResponse, ResolveReportInput } from '@shared/schemas/reports';
import { pageOf } from '../../lib/paging';
import { appendAudit } from '../audit/audit.repository';
import { notifyReportResolved } from '../notifications/notifications.service';
import { deleteAuctionInTx, removeAuctionFiles, type DeletedAuction } from '../auctions/auctions.service';
import { deleteCommentInTx } from '../comments/comments.service';
import { findComment } from '../comments/comments.repository';
import { blockInTx, endSessionsOf } from '../admin/admin-users.service';
import * as repo from './reports.repository';
import { presentAdminReport } from './reports.presenter';

export interface FiledReport {
  report: ReportCreatedResponse;
  /** false: the reporter's open report on that target, answered again (200). */
  created: boolean;
}

/**
 * POST /api/reports/: unknown target → 404; one's own auction, comment or self → 400; `non_payment` only against
 * a member who won an auction of the reporter's → 400; the reporter's open report on the same target → that one
 * (200); more than REPORTS_PER_HOUR in an hour → 429. Counted in the database, so every node agrees.
 */
export async function fileReport(ctx: AppContext, user: User, input: CreateReportInput): Promise<FiledReport> {
  const target = await repo.findTarget(ctx.db, input.target_type, input.target_id);
  if (!target) throw AppError.field('target_id', reportTexts.targetNotFound, 404, 'not_found');
  if (target.ownerId === user.id) throw AppError.field('target_id', reportTexts.ownTarget, 400, 'own_target');
  if (input.reason === 'non_payment' && !(await repo.wonFrom(ctx.db, target.id, user.id))) {
    throw AppError.field('reason', reportTexts.nonPaymentOnlyWinner, 400, 'not_your_winner');
  }
  const open = () => repo.findOpenReport(ctx.db, user.id, target.type, target.id);
  const existing = await open();
  if (existing) return { report: { id: existing.id, status: existing.status }, created: false };
  const now = Date.now();
  if ((await repo.countReportsSince(ctx.db, user.id, isoAt(now - REPORT_WINDOW_MS))) >= REPORTS_PER_HOUR) {
    throw new AppError(429, 'rate_limited', srv.rateLimited);
  }
  try {
    const row = await repo.insertReport(ctx.db, {
      reporter_id: user.id,
      target_type: target.type,
      target_id: target.id,
      owner_id: target.ownerId,
      reason: input.reason,
      text: input.text,
      created_at: isoAt(now),
    });
    return { report: { id: row.id, status: row.status }, created: true };
  } catch (err) {
    // The same report sent twice at once: the partial unique index kept one, which both answer.
    const again = isUniqueViolation(err) ? await open() : undefined;
    if (again) return { report: { id: again.id, status: again.status }, created: false };
    throw err;
  }
}

/** GET /api/admin/reports/: one page, newest first, with each target as it is now and its report count. */
export async function pageReports(ctx: AppContext, query: AdminReportsQuery): Promise<Paged<AdminReport>> {
  const { page, page_size: size, status } = query;
  const [count, rows] = await Promise.all([repo.countReports(ctx.db, status), repo.listReports(ctx.db, status, size, (page - 1) * size)]);
  return pageOf(count, page, size, await presentReports(ctx.db, rows));
}

async function presentReports(db: DbOrTx, rows: repo.ReportListRow[]): Promise<AdminReport[]> {
  const refs = rows.map((r) => ({ type: r.target_type, id: r.target_id }));
  const [targets, counts] = await Promise.all([repo.findTargets(db, refs), repo.countsOnTargets(db, refs)]);
  return rows.map((r) => presentAdminReport(r, targets, counts));
}

interface Resolved {
  events: DomainEvent[];
  deleted?: DeletedAuction;
  blockedId?: number;
}

/**
 * POST /api/admin/reports/{id}/resolve/. `dismiss` closes this report; `delete_target` deletes the auction (even
 * with bids) or the comment (a member → 400) and `block_owner` blocks its owner (the member itself), each closing
 * every open report on that target. One transaction: the action, the closed reports, one audit-log row per
 * closed report (and the delete's or the block's own), each reporter's `report_resolved` notification.
 */
export async function resolveReport(ctx: AppContext, admin: User, id: number, input: ResolveReportInput): Promise<AdminReport> {
  const result = await unitOfWork(ctx, (tx) => resolveInTx(tx, admin, id, input), { events: (r) => r.events });
  if (result.deleted) await removeAuctionFiles(ctx, result.deleted);
  if (result.blockedId !== undefined) await endSessionsOf(ctx, result.blockedId);
  const [row] = await repo.listReports(ctx.db, undefined, 1, 0, id);
  return (await presentReports(ctx.db, [row!]))[0]!;
}

async function resolveInTx(tx: DbOrTx, admin: User, id: number, input: ResolveReportInput): Promise<Resolved> {
  const report = await repo.findReport(tx, id);
  if (!report) throw AppError.notFound(reportTexts.reportNotFound);
  if (report.status !== 'open') throw AppError.badRequest(reportTexts.alreadyClosed, undefined, 'report_closed');
  if (input.action === 'delete_target' && report.target_type === 'member') {
    throw AppError.field('action', reportTexts.cannotDeleteMember, 400, 'cannot_delete_member');
  }
  const now = isoAt(Date.now());
  const target = await repo.findTarget(tx, report.target_type, report.target_id);
  const dismiss = input.action === 'dismiss';
  // Claimed first and conditionally: of two admins closing the same report, the second rolls back here.
  const closing = { status: dismiss ? 'dismissed' : 'resolved', action: input.action, note: input.note, adminId: admin.id, at: now } as const;
  const closed = await repo.closeOpenReports(tx, report, !dismiss, closing);
  if (!closed.some((r) => r.id === report.id)) throw AppError.badRequest(reportTexts.alreadyClosed, undefined, 'report_closed');
  const out: Resolved = { events: [] };
  if (input.action === 'delete_target' && target) out.events.push(...(await deleteTarget(tx, admin, report, input.note, out)));
  if (input.action === 'block_owner') {
    await blockInTx(tx, admin, report.owner_id, input.note);
    out.blockedId = report.owner_id;
  }
  const label = report.target_type === 'comment' ? null : (target?.label ?? null);
  const changes: NotificationChange[] = [];
  for (const r of closed) {
    const action = dismiss ? 'dismiss_report' : 'resolve_report';
    await appendAudit(tx, { admin_id: admin.id, action, target_type: 'report', target_id: r.id, note: input.note, created_at: now });
    changes.push(await notifyReportResolved(tx, r.reporter_id, reportTexts.resolvedNotice(r.target_type, label, dismiss), now));
  }
  out.events.push(...notificationEvents(changes));
  return out;
}

async function deleteTarget(tx: DbOrTx, admin: User, report: repo.ReportRow, note: string, out: Resolved): Promise<DomainEvent[]> {
  if (report.target_type === 'auction') {
    out.deleted = await deleteAuctionInTx(tx, admin, report.target_id, note);
    return out.deleted.events;
  }
  const comment = await findComment(tx, report.target_id);
  return comment ? deleteCommentInTx(tx, admin, comment, note) : [];
}
