/**
 * Reports, the moderation queue and the append-only audit log (issue 24). Paged lists as issue 23's
 * (`{count, next, previous, results}`, PageQuery).
 */
import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, REPORT_ACTIONS, REPORT_REASONS, REPORT_STATUSES, REPORT_TARGET_TYPES, REPORT_TEXT_MAX } from '../rules/reports';
import { reportTexts } from '../texts/reports';
import { Paged } from './auctions';
import { PageQuery } from './sales';

const blankToUndefined = (v: unknown) => (v === undefined || v === '' ? undefined : v);
const positiveId = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : v),
    z.number({ error: message }).int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message),
  );
const trimmedText = (invalid: string, tooLong: string) =>
  z
    .string({ error: invalid })
    .trim()
    .max(REPORT_TEXT_MAX, tooLong)
    .nullish()
    .transform((t) => t ?? '');

/** POST /api/reports/: `text` trimmed, at most 500 characters, required for `other`. */
export const CreateReportInput = z
  .object({
    target_type: z.enum(REPORT_TARGET_TYPES, { error: reportTexts.targetTypeInvalid }),
    target_id: positiveId(reportTexts.targetIdInvalid),
    reason: z.enum(REPORT_REASONS, { error: reportTexts.reasonInvalid }),
    text: trimmedText(reportTexts.textInvalid, reportTexts.textTooLong),
  })
  .superRefine((r, ctx) => {
    if (r.reason === 'other' && !r.text) ctx.addIssue({ code: 'custom', path: ['text'], message: reportTexts.textRequired });
    if (r.reason === 'non_payment' && r.target_type !== 'member') {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: reportTexts.nonPaymentOnlyWinner });
    }
  });
export type CreateReportInput = z.output<typeof CreateReportInput>;
export type CreateReportForm = z.input<typeof CreateReportInput>;

/** 201 (a new report) or 200 (the reporter's open report on that target). */
export const ReportCreatedResponse = z.object({ id: z.number(), status: z.enum(REPORT_STATUSES) });
export type ReportCreatedResponse = z.infer<typeof ReportCreatedResponse>;

export const PersonRef = z.object({ id: z.number(), first_name: z.string() });
export type PersonRef = z.infer<typeof PersonRef>;

/** What was reported, as it is now; null once deleted. One of title (auction), content (comment), first_name (member). */
export const ReportTarget = z.object({
  title: z.string().optional(),
  content: z.string().optional(),
  first_name: z.string().optional(),
  owner: PersonRef,
});
export type ReportTarget = z.infer<typeof ReportTarget>;

export const ReportResolution = z.object({ action: z.enum(REPORT_ACTIONS), note: z.string(), admin: PersonRef });

/** A report in the admin's queue. `reports_on_target`: every report (any status) on the same target. */
export const AdminReport = z.object({
  id: z.number(),
  target_type: z.enum(REPORT_TARGET_TYPES),
  target_id: z.number(),
  target: ReportTarget.nullable(),
  reason: z.enum(REPORT_REASONS),
  text: z.string(),
  reporter: PersonRef,
  status: z.enum(REPORT_STATUSES),
  created_at: z.string(),
  resolved_at: z.string().nullable(),
  resolution: ReportResolution.nullable(),
  reports_on_target: z.number(),
});
export type AdminReport = z.infer<typeof AdminReport>;
export const AdminReportsPage = Paged(AdminReport);
export type AdminReportsPage = z.infer<typeof AdminReportsPage>;

/** GET /api/admin/reports/?status=&page=&page_size=: no `status` (or blank) = every status; newest first. */
export const AdminReportsQuery = PageQuery.extend({
  status: z.preprocess(blankToUndefined, z.enum(REPORT_STATUSES, { error: reportTexts.statusInvalid }).optional()),
});
export type AdminReportsQuery = z.output<typeof AdminReportsQuery>;

/** POST /api/admin/reports/{id}/resolve/: `note` trimmed, at most 500 characters, optional. */
export const ResolveReportInput = z.object({
  action: z.enum(REPORT_ACTIONS, { error: reportTexts.actionInvalid }),
  note: trimmedText(reportTexts.noteInvalid, reportTexts.noteTooLong),
});
export type ResolveReportInput = z.output<typeof ResolveReportInput>;

/** One row of the append-only audit log. `note`: the admin's note of a report's resolution, '' otherwise. */
export const AuditEntry = z.object({
  id: z.number(),
  admin: PersonRef,
  action: z.enum(AUDIT_ACTIONS),
  target_type: z.enum(AUDIT_TARGET_TYPES),
  target_id: z.number(),
  note: z.string(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditLogPage = Paged(AuditEntry);
export type AuditLogPage = z.infer<typeof AuditLogPage>;
