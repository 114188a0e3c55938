import { Router } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireAdmin } from '../../http/auth';
import { parse, parseId } from '../../http/validate';
import { srv } from '@shared/texts/server';
import type { ApiOutput } from '@shared/api';
import { AdminUsersQuery } from '@shared/schemas/admin';
import { presentAdminUser } from './admin-users.presenter';
import { blockUser, listAdminUsers, unblockUser } from './admin-users.service';

/** GET /api/admin/users/?q=&page=&page_size= (see listAdminUsers), POST /api/admin/users/{id}/block/ and /unblock/ (admins only; others 403). */
export function adminUsersRoutes(ctx: AppContext): Router {
  const r = Router();

  r.get('/admin/users/', requireAdmin, async (req, res) => {
    res.json(await listAdminUsers(ctx, parse(AdminUsersQuery, req.query)));
  });

  r.post('/admin/users/:id/block/', requireAdmin, async (req, res) => {
    const id = parseId(req.params.id);
    const user = await blockUser(ctx, currentUser(req), id);
    res.json({ ...presentAdminUser(user), detail: srv.userBlocked } satisfies ApiOutput<'POST /api/admin/users/:id/block/'>);
  });

  r.post('/admin/users/:id/unblock/', requireAdmin, async (req, res) => {
    const id = parseId(req.params.id);
    const user = await unblockUser(ctx, currentUser(req), id);
    res.json({ ...presentAdminUser(user), detail: srv.userUnblocked } satisfies ApiOutput<'POST /api/admin/users/:id/unblock/'>);
  });

  return r;
}
