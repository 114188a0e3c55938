import { Router } from 'express';
import type { AppContext } from '../context';
import { accountsRoutes } from './accounts/accounts.routes';
import { adminRoutes } from './admin/admin.routes';
import { auctionsRoutes } from './auctions/auctions.routes';
import { imagesRoutes } from './images/images.routes';
import { bidsRoutes } from './bids/bids.routes';
import { commentsRoutes } from './comments/comments.routes';
import { notificationsRoutes } from './notifications/notifications.routes';
import { startClosingJob } from './auctions/closing';

/** Every REST route under /api, feature by feature. */
export function apiRoutes(ctx: AppContext): Router {
  const r = Router();
  r.use(accountsRoutes(ctx));
  r.use(adminRoutes(ctx));
  r.use(auctionsRoutes(ctx));
  r.use(imagesRoutes(ctx));
  r.use(bidsRoutes(ctx));
  r.use(commentsRoutes(ctx));
  r.use(notificationsRoutes(ctx));
  return r;
}

/** Timers (auction closing). Returns a function that stops them all. */
export function startBackgroundJobs(ctx: AppContext): () => void {
  const stops: Array<() => void> = [startClosingJob(ctx)];
  return () => stops.forEach((s) => s());
}
