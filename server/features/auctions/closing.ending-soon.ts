/**
 * The ending-soon alert (issue 14): when ENDING_SOON_SECONDS of an open auction are left, each of its watchers
 * and bidders is told once. "Once" is stored, not timed: the closer's tick claims the auction by setting
 * auctions.ending_soon_at with a conditional UPDATE, in the same transaction as the notifications, so the alert
 * goes out exactly once across nodes and restarts (a window that opened while the server was down is sent at
 * the next start), and a soft-close extension, which moves end_date, never sends a second one.
 */
import type { AppContext } from '../../context';
import { isoAt } from '../../lib/time';
import { notificationEvents, type DomainEvent, type NotificationChange } from '../../events';
import { unitOfWork } from '../../unit-of-work';
import { notifyEndingSoon } from '../notifications/notifications.service';
import { watcherIdsBefore } from '../watchlist/watchlist.repository';
import { bidderIdsBefore, claimEndingSoon, findEndingSoonIds } from './closing.repository';

const BATCH = 100;

/** "se završava za {n} minuta": the minutes left, rounded, at least 1. */
export function minutesLeft(endDate: string, nowMs: number): number {
  return Math.max(1, Math.round((Date.parse(endDate) - nowMs) / 60_000));
}

/**
 * Sends one auction's alert if it is still open, unclaimed and inside its window at `nowMs`: to every user who
 * watched it, or had bid on it, before the window opened (end_date − ENDING_SOON_SECONDS), each once; not to
 * its seller, nor to a blocked user. Returns
 * the notification events (published after the commit), or null when another call claimed it (or it is not due).
 */
export async function sendEndingSoon(ctx: AppContext, auctionId: number, nowMs: number = Date.now()): Promise<DomainEvent[] | null> {
  const windowMs = ctx.config.endingSoonSeconds * 1000;
  const now = isoAt(nowMs);
  return unitOfWork(ctx, async (tx): Promise<DomainEvent[] | null> => {
    const row = await claimEndingSoon(tx, auctionId, now, isoAt(nowMs + windowMs));
    if (!row) return null;
    const windowStart = isoAt(Date.parse(row.end_date) - windowMs);
    const watchers = await watcherIdsBefore(tx, row.id, windowStart);
    const bidders = await bidderIdsBefore(tx, row.id, windowStart);
    // The seller is not told about their own auction (the lists let a seller watch it, the UI does not).
    const recipients = [...new Set([...watchers, ...bidders])].filter((id) => id !== row.seller_id).sort((a, b) => a - b);
    const minutes = minutesLeft(row.end_date, nowMs);
    const changes: NotificationChange[] = [];
    for (const userId of recipients) changes.push(await notifyEndingSoon(tx, userId, { id: row.id, title: row.title }, minutes, now));
    return notificationEvents(changes);
  }, { events: (events) => events });
}

/**
 * Sends the alert of every auction whose window has opened at `nowMs`, each published after its commit. Returns
 * how many. `stopped()` is asked between two auctions, as in closeDueAuctions().
 */
export async function sendDueEndingSoon(ctx: AppContext, nowMs: number = Date.now(), stopped: () => boolean = () => false): Promise<number> {
  const windowMs = ctx.config.endingSoonSeconds * 1000;
  if (windowMs <= 0) return 0;
  let sent = 0;
  for (;;) {
    const ids = await findEndingSoonIds(ctx.db, isoAt(nowMs), isoAt(nowMs + windowMs), BATCH);
    for (const id of ids) {
      if (stopped()) return sent;
      if (await sendEndingSoon(ctx, id, nowMs)) sent += 1;
    }
    if (ids.length < BATCH) return sent;
  }
}
