import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationResponse } from '@shared/schemas/notifications';
import { api } from '../../../lib/api';
import { unreadCountKey } from './unread-count';

export const notificationsKey = ['notifications', 'list'] as const;

/** GET /api/notifications/ (newest first) */
export const fetchNotifications = () => api('GET /api/notifications/');

export const notificationsQuery = () => queryOptions({ queryKey: notificationsKey, queryFn: fetchNotifications });

export const useNotifications = () => useQuery(notificationsQuery());

/** PATCH /api/notifications/{id}/mark-as-read/ */
export const markAsRead = (id: number) =>
  api('PATCH /api/notifications/:id/mark-as-read/', { params: { id } });

/** Marks one read and updates the list and the bell's count in the cache. */
export function useMarkAsRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: markAsRead,
    onSuccess: (res, id) => {
      qc.setQueryData<NotificationResponse[]>(notificationsKey, (list) => list?.map((n) => (n.id === id ? { ...n, is_read: true } : n)));
      if (typeof res?.unread_notifications_count === 'number') qc.setQueryData(unreadCountKey, res.unread_notifications_count);
      else void qc.invalidateQueries({ queryKey: unreadCountKey });
    },
  });
}
