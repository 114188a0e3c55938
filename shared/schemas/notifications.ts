import { z } from 'zod';

/** What the server tells a user about; `message` is escaped markup with \n line breaks. */
export const NOTIFICATION_KINDS = ['outbid', 'new_bid', 'won', 'auction_ended', 'new_comment', 'ending_soon', 'reserve_not_met', 'rating_received', 'report_resolved', 'saved_search'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NotificationResponse = z.object({
  id: z.number(),
  message: z.string(),
  is_read: z.boolean(),
  created_at: z.string(),
  auction_id: z.number().nullable(),
  /** What it is about (issue 23): one of NOTIFICATION_KINDS. */
  kind: z.enum(NOTIFICATION_KINDS),
});
export type NotificationResponse = z.infer<typeof NotificationResponse>;
/** GET /api/notifications/, newest first. */
export const NotificationListResponse = z.array(NotificationResponse);

export const UnreadCountResponse = z.object({ unread_notifications_count: z.number() });
export type UnreadCountResponse = z.infer<typeof UnreadCountResponse>;

/** PATCH /api/notifications/{id}/mark-as-read/ */
export const MarkReadResponse = z.object({
  id: z.number(),
  is_read: z.literal(true),
  unread_notifications_count: z.number(),
});
export type MarkReadResponse = z.infer<typeof MarkReadResponse>;

/**
 * Socket events to room user:{id}: `notification:created` for a new one, `notification:updated` when a
 * burst of bids is folded into an existing unread 'new bid' notification (same id, new text).
 */
export const NotificationEvent = z.object({
  notification: NotificationResponse,
  unread_notifications_count: z.number(),
});
export type NotificationEvent = z.infer<typeof NotificationEvent>;
export const NotificationsCountEvent = UnreadCountResponse;
export type NotificationsCountEvent = z.infer<typeof NotificationsCountEvent>;
