import type { Notification } from '../../db/types';
import type { NotificationKind, NotificationResponse } from '@shared/schemas/notifications';

/** `kind` as stored: every row is written through insertNotification, which takes a NotificationKind. */
export function presentNotification(n: Notification): NotificationResponse {
  return { id: n.id, message: n.message, is_read: !!n.is_read, created_at: n.created_at, auction_id: n.auction_id, kind: n.kind as NotificationKind };
}
