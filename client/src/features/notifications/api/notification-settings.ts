import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { NotificationSettingsInput, NotificationSettingsResponse } from '@shared/schemas/notification-settings';

export const notificationSettingsKey = ['notification-settings'] as const;

/** GET /api/notification-settings/ */
export const fetchNotificationSettings = (): Promise<NotificationSettingsResponse> => api('GET /api/notification-settings/');

export const notificationSettingsQuery = () => queryOptions({ queryKey: notificationSettingsKey, queryFn: fetchNotificationSettings });

export const useNotificationSettings = () => useQuery(notificationSettingsQuery());

/** PUT /api/notification-settings/ (any subset of the kinds); the answer is the whole settings. */
export const useSaveNotificationSettings = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationSettingsInput) => api('PUT /api/notification-settings/', { body }),
    onSuccess: (data) => qc.setQueryData(notificationSettingsKey, data),
  });
};
