/**
 * The poll of bid notices nobody is delivering (bid-notices.ts): what a stopped process or a failed delivery left.
 * A background job of its own file, so the statement log of the tests can tell it from a request's delivery.
 */
import type { AppContext } from '../../context';
import { isoAt } from '../../lib/time';
import { deliverBidNotices } from './bid-notices';
import { strayBidNoticeAuctions } from './bids.repository';

/** A notice this old has no delivery of its own coming: the poll delivers it. */
export const STRAY_AFTER_MS = 10_000;
const STRAY_BATCH = 100;

/** Delivers the notices older than `olderThanMs` (all of them with 0), up to STRAY_BATCH auctions. Returns how many. */
export async function deliverStrayNotices(ctx: AppContext, olderThanMs = STRAY_AFTER_MS): Promise<number> {
  const ids = await strayBidNoticeAuctions(ctx.db, isoAt(Date.now() - olderThanMs), STRAY_BATCH);
  for (const id of ids) await deliverBidNotices(ctx, id);
  return ids.length;
}

/** Delivers what a previous process left (at start), then stray notices every MAIL_POLL_SECONDS. Returns stop(). */
export function startStrayNoticeDelivery(ctx: AppContext): () => Promise<void> {
  let pass: Promise<unknown> | null = null;
  let stopped = false;
  const run = (olderThanMs: number) => {
    if (stopped || pass) return;
    pass = deliverStrayNotices(ctx, olderThanMs)
      .catch((err: unknown) => ctx.logger.error({ err }, 'delivering stray bid notifications failed; next poll retries'))
      .finally(() => (pass = null));
  };
  run(0);
  const timer = setInterval(() => run(STRAY_AFTER_MS), ctx.config.mailPollSeconds * 1000);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await pass;
  };
}
