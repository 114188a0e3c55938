import type { Notification } from '../../db/types';
import type { NotificationResponse } from '@shared/schemas/notifications';

export function presentNotification(n: Notification): NotificationResponse {
  return { id: n.id, message: n.message, is_read: !!n.is_read, created_at: n.created_at, auction_id: n.auction_id };
}
