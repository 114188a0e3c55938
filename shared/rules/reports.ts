/**
 * Reports, the moderation queue and the audit log (issue 24): limits and the words of the contract both sides
 * use. Free of zod, so the client's report dialog imports them without the schema bundle.
 */

export const REPORT_TARGET_TYPES = ['auction', 'comment', 'member'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

/** `non_payment`: a winner who never paid, only against a member who won an auction of the reporter's. */
export const REPORT_REASONS = ['fraud', 'prohibited', 'wrong_category', 'offensive', 'spam', 'non_payment', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_ACTIONS = ['delete_target', 'block_owner', 'dismiss'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

/** A report's text and an admin's note, after trimming: at most this many characters. */
export const REPORT_TEXT_MAX = 500;
/** Reports one member may file in REPORT_WINDOW_MS (the 21st answers 429). */
export const REPORTS_PER_HOUR = 20;
export const REPORT_WINDOW_MS = 3600_000;

/** What an audit-log row records. */
export const AUDIT_ACTIONS = ['delete_auction', 'delete_comment', 'block_user', 'unblock_user', 'resolve_report', 'dismiss_report'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_TARGET_TYPES = ['auction', 'comment', 'member', 'report'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** The reasons a report of this kind of target may give: `non_payment` is about a member only. */
export function reasonsFor(target: ReportTargetType): readonly ReportReason[] {
  return target === 'member' ? REPORT_REASONS : REPORT_REASONS.filter((r) => r !== 'non_payment');
}
