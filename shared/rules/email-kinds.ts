/**
 * The notification kinds that can also reach a member by e-mail (issue 27), in the order the settings page
 * shows them. `new_bid` and `new_comment` stay in-app only. A kind is mailed when its in-app notification is
 * created and the member has not turned it off: kinds other branches add mail as soon as they are listed here.
 * No zod here: the client's settings page imports it.
 */
export const EMAIL_KINDS = [
  'outbid',
  'won',
  'auction_ended',
  'reserve_not_met',
  'ending_soon',
  'rating_received',
  'report_resolved',
  'saved_search',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** The e-mail kind of a notification kind, or null when that kind is never mailed. */
export function emailKindOf(kind: string): EmailKind | null {
  return (EMAIL_KINDS as readonly string[]).includes(kind) ? (kind as EmailKind) : null;
}

/** Every kind on: a new member's settings. */
export function allEmailKindsOn(): Record<EmailKind, boolean> {
  return Object.fromEntries(EMAIL_KINDS.map((k) => [k, true])) as Record<EmailKind, boolean>;
}
