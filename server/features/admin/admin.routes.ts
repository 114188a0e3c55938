import { Router } from 'express';
import type { AppContext } from '../../context';
import { adminUsersRoutes } from './admin-users.routes';

/**
 * Everything under /api/admin/. Each admin area lives in its own `admin-<area>.routes.ts` and is mounted
 * here; every route inside guards itself with requireAdmin.
 */
export function adminRoutes(ctx: AppContext): Router {
  const r = Router();
  r.use(adminUsersRoutes(ctx));
  return r;
}
