import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const unreadCountKey = ['notifications', 'unread-count'] as const;

/** GET /api/notifications/unread-count/ */
export async function fetchUnreadCount(): Promise<number> {
  const data = await api('GET /api/notifications/unread-count/');
  return data.unread_notifications_count;
}

export const unreadCountQuery = (enabled = true) =>
  queryOptions({ queryKey: unreadCountKey, queryFn: fetchUnreadCount, enabled });

export const useUnreadCount = (enabled = true) => useQuery(unreadCountQuery(enabled));
