import { Router } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireAuth } from '../../http/auth';
import { AppError } from '../../http/errors';
import { parseId } from '../../http/validate';
import { broadcastUnreadCount } from '../../realtime/broadcast';
import type { MarkReadResponse, UnreadCountResponse } from '@shared/schemas/notifications';
import { countUnread, listNotifications, markRead } from './notifications.repository';
import { presentNotification } from './notifications.presenter';

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
    const { row, unread } = await ctx.db.transaction().execute(async (tx) => {
      const updated = await markRead(tx, user.id, id);
      return { row: updated, unread: updated ? await countUnread(tx, user.id) : 0 };
    });
    // Someone else's id answers exactly like a missing one: no oracle.
    if (!row) throw AppError.notFound();
    const body: MarkReadResponse = { id: row.id, is_read: true, unread_notifications_count: unread };
    res.json(body);
    broadcastUnreadCount(ctx, user.id, unread);
  });

  return r;
}
