import { Router } from 'express';
import type { AppContext } from '../context';
import type { ClosingScheduler } from './auctions/closing.scheduler';
import { accountsRoutes } from './accounts/accounts.routes';
import { adminRoutes } from './admin/admin.routes';
import { auctionsRoutes } from './auctions/auctions.routes';
import type { ListCache } from './auctions/list-cache';
import { imagesRoutes } from './images/images.routes';
import { bidsRoutes } from './bids/bids.routes';
import { commentsRoutes } from './comments/comments.routes';
import { notificationsRoutes } from './notifications/notifications.routes';
import { watchlistRoutes } from './watchlist/watchlist.routes';
import { healthRoutes } from './health/health.routes';
import { salesRoutes } from './sales/sales.routes';
import { membersRoutes } from './members/members.routes';
import { reportsRoutes } from './reports/reports.routes';
import { blocksRoutes } from './blocks/blocks.routes';
import { openApiRoutes } from './openapi/openapi.routes';
import { startIdempotencyKeyPruning } from './bids/idempotency-pruning';
import { startMailWorker } from './email-alerts/email-alerts.worker';
import { savedSearchesRoutes } from './saved-searches/saved-searches.routes';
import { startSavedSearchMatcher } from './saved-searches/saved-searches.matcher';
import { startStrayNoticeDelivery } from './bids/stray-notices';
import { notificationSettingsRoutes, unsubscribeRoutes } from './email-alerts/email-alerts.routes';

export { cachedListAnswers, publicListCache } from './auctions/auctions.routes';

/** Every REST route under /api, feature by feature; `lists`: the public lists' cache (publicListCache). */
export function apiRoutes(ctx: AppContext, lists: ListCache): Router {
  const r = Router();
  // Busiest first: Express tries every route above the one that matches, so a bid on a hot auction behind
  // the account, admin, auction and image routes would walk past ~35 of them (docs/performance.md, B1). No
  // two routes match the same request (tests/server/route-table.test.ts), so the order changes nothing else.
  r.use(bidsRoutes(ctx));
  r.use(auctionsRoutes(ctx, lists));
  r.use(accountsRoutes(ctx));
  r.use(notificationsRoutes(ctx));
  r.use(watchlistRoutes(ctx));
  r.use(commentsRoutes(ctx));
  r.use(imagesRoutes(ctx));
  r.use(adminRoutes(ctx));
  r.use(healthRoutes(ctx));
  r.use(salesRoutes(ctx));
  r.use(membersRoutes(ctx));
  r.use(reportsRoutes(ctx));
  r.use(blocksRoutes(ctx));
  r.use(openApiRoutes());
  r.use(notificationSettingsRoutes(ctx));
  r.use(savedSearchesRoutes(ctx));
  return r;
}

/**
 * Routes mounted before the CSRF check: only RFC 8058's one-click unsubscribe, which a mail client POSTs with no
 * session, no CSRF token and no Origin; its signed token is its whole authorisation (docs/security.md).
 */
export function csrfExemptRoutes(ctx: AppContext): Router {
  return unsubscribeRoutes(ctx);
}

/**
 * Timers (auction closing, expired Idempotency-Keys, the mail worker, the saved-search matcher, stray bid
 * notices). Returns a function that stops them all; it settles once the closer has finished the auction it was
 * closing, if any, and the mail worker its send in flight.
 */
export function startBackgroundJobs(ctx: AppContext, closer: ClosingScheduler): () => Promise<void> {
  const stops: Array<() => void | Promise<void>> = [closer.start(ctx), startIdempotencyKeyPruning(ctx), startMailWorker(ctx), startSavedSearchMatcher(ctx), startStrayNoticeDelivery(ctx)];
  return async () => {
    await Promise.all(stops.map((s) => s()));
  };
}
