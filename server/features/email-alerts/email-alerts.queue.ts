/**
 * The hook the notifications service calls after each insert, in the same transaction (issue 27): the mail of a
 * notification is queued with it, or not at all. The worker (email-alerts.worker.ts) sends it after the commit.
 */
import type { Kysely } from 'kysely';
import type { DbOrTx, Notification } from '../../db/types';
import { isoAt } from '../../lib/time';
import { emailKindOf } from '@shared/rules/email-kinds';
import { foldInto, foldIntoLatest, insertMail, latestOutbidMail, mailAllowed } from './email-alerts.repository';

/** What a notification queued: no mail, a mail due at once (the worker is woken), or one sent later (a fold). */
export type MailQueued = 'none' | 'now' | 'later';

/** Default of OUTBID_MAIL_WINDOW_SECONDS: at most one outbid mail per member and auction in this long. */
export const OUTBID_MAIL_WINDOW_MS = 10 * 60 * 1000;

interface QueueSettings {
  outbidWindowMs: number;
}

// Per database (keyed by kysely's adapter, which every transaction shares with its database): two apps in one
// process (tests) keep their own windows, and the notification service's signatures stay as they are.
const settingsByAdapter = new WeakMap<object, QueueSettings>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const adapterOf = (db: Kysely<any>): object => db.getExecutor().adapter;

/** Sets the outbid window of one app's database (the worker does, at start). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function configureMailQueue(db: Kysely<any>, settings: QueueSettings): void {
  settingsByAdapter.set(adapterOf(db), settings);
}

/**
 * Queues the e-mail of a notification just inserted by `tx`: only for a kind that mails (shared/rules/email-kinds),
 * to a verified, unblocked member who has not turned that kind off. `outbid` folds: the first of a member's
 * auction goes at once; later ones inside the window become one mail at the window's end (sent only if the
 * member still does not lead then). Outbid notifications are made under the auction's lock, so the folding of
 * one member's auction never races itself.
 */
export async function queueMailFor(tx: DbOrTx, n: Notification): Promise<MailQueued> {
  const kind = emailKindOf(n.kind);
  if (!kind || !(await mailAllowed(tx, n.user_id, kind))) return 'none';
  const base = { user_id: n.user_id, auction_id: n.auction_id, kind, message: n.message, created_at: n.created_at };
  if (kind !== 'outbid' || n.auction_id === null) return dueNow(tx, { ...base, send_after: n.created_at });
  // Inside a window its folded mail is still waiting: folded into it in one statement (B1auto's maxima).
  if (await foldIntoLatest(tx, n.user_id, n.auction_id, n.message, n.created_at)) return 'later';
  const windowMs = settingsByAdapter.get(adapterOf(tx))?.outbidWindowMs ?? OUTBID_MAIL_WINDOW_MS;
  const nowMs = Date.parse(n.created_at);
  const latest = await latestOutbidMail(tx, n.user_id, n.auction_id);
  if (!latest || Date.parse(latest.send_after) <= nowMs - windowMs) return dueNow(tx, { ...base, send_after: n.created_at });
  if (latest.folded === 1 && (await foldInto(tx, latest.id, n.message, n.created_at))) return 'later';
  // The window opened by `latest` (sent, due now, or a fold being sent right now) ends windowMs after it.
  const windowEnd = Math.max(Date.parse(latest.send_after) + windowMs, nowMs);
  await insertMail(tx, { ...base, send_after: isoAt(windowEnd), folded: 1 });
  return 'later';
}

async function dueNow(tx: DbOrTx, mail: Parameters<typeof insertMail>[1]): Promise<MailQueued> {
  await insertMail(tx, mail);
  return 'now';
}
