/**
 * The typed socket contract (issue 5). Both sides import these so `tsc` fails when they drift.
 * Event names are `resource:past-tense`.
 */
export const auctionRoom = (id: number) => `auction:${id}`;
export const userRoom = (id: number) => `user:${id}`;

export interface NotificationPayload {
  id: number;
  message: string;
  is_read: boolean;
  created_at: string;
}

export interface ServerToClientEvents {
  'notification:created': (p: { notification: NotificationPayload; unread_notifications_count: number }) => void;
  'notifications:count': (p: { unread_notifications_count: number }) => void;
  // Auction room events are added by the live issue.
  [event: string]: (...args: never[]) => void;
}

export interface ClientToServerEvents {
  'time:sync': (p: { client_time: number }, ack: (r: { client_time: number; server_time: number }) => void) => void;
}

export interface SocketData {
  userId: number | null;
}
