import { Router } from 'express';
import type { AppContext } from '../../context';
import { adminUsersRoutes } from './admin-users.routes';
import { adminReportsRoutes } from './admin-reports.routes';

/**
 * Everything under /api/admin/. Each admin area lives in its own `admin-<area>.routes.ts` and is mounted
 * here; every route inside guards itself with requireAdmin.
 */
export function adminRoutes(ctx: AppContext): Router {
  const r = Router();
  r.use(adminUsersRoutes(ctx));
  r.use(adminReportsRoutes(ctx));
  return r;
}
