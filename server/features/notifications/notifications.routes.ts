import { Router } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireAuth } from '../../http/auth';
import { AppError } from '../../http/errors';
import { parseId } from '../../http/validate';
import type { MarkReadResponse, UnreadCountResponse } from '@shared/schemas/notifications';
import { countUnread, listNotifications } from './notifications.repository';
import { presentNotification } from './notifications.presenter';
import { markNotificationRead } from './notifications.service';

/** Own notifications only: list (newest first), unread count, mark as read. */
export function notificationsRoutes(ctx: AppContext): Router {
  const r = Router();

  r.get('/notifications/', requireAuth, async (req, res) => {
    const rows = await listNotifications(ctx.db, currentUser(req).id);
    res.json(rows.map(presentNotification));
  });

  r.get('/notifications/unread-count/', requireAuth, async (req, res) => {
    const body: UnreadCountResponse = { unread_notifications_count: await countUnread(ctx.db, currentUser(req).id) };
    res.json(body);
  });

  r.patch('/notifications/:id/mark-as-read/', requireAuth, async (req, res) => {
    const id = parseId(req.params.id);
    const user = currentUser(req);
    const read = await markNotificationRead(ctx, user.id, id);
    // Someone else's id answers exactly like a missing one: no oracle.
    if (!read) throw AppError.notFound();
    const body: MarkReadResponse = { id: read.id, is_read: true, unread_notifications_count: read.unread };
    res.json(body);
  });

  return r;
}
