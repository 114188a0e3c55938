import { Router } from 'express';
import type { AppContext } from '../context';
import { accountsRoutes } from './accounts/accounts.routes';

/** Every REST route under /api, feature by feature. */
export function apiRoutes(ctx: AppContext): Router {
  const r = Router();
  r.use(accountsRoutes(ctx));
  return r;
}

/** Timers (auction closing, pruning). Returns a function that stops them all. */
export function startBackgroundJobs(_ctx: AppContext): () => void {
  const stops: Array<() => void> = [];
  return () => stops.forEach((s) => s());
}
