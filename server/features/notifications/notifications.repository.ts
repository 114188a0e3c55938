import type { DbOrTx, Notification } from '../../db/types';
import type { NotificationKind } from '@shared/schemas/notifications';

/** How many notifications GET /api/notifications/ answers at most (newest first). */
export const NOTIFICATION_LIST_LIMIT = 200;

export function insertNotification(
  db: DbOrTx,
  n: { user_id: number; auction_id: number | null; kind: NotificationKind; message: string; created_at: string },
): Promise<Notification> {
  return db.insertInto('notifications').values({ ...n, is_read: 0 }).returningAll().executeTakeFirstOrThrow();
}

/** The seller's unread 'new_bid' notification of this auction created at or after `since`, if any. */
export function findRecentUnread(
  db: DbOrTx,
  userId: number,
  auctionId: number,
  kind: NotificationKind,
  since: string,
): Promise<Notification | undefined> {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('user_id', '=', userId)
    .where('auction_id', '=', auctionId)
    .where('kind', '=', kind)
    .where('is_read', '=', 0)
    .where('created_at', '>=', since)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function updateNotificationMessage(db: DbOrTx, id: number, message: string): Promise<Notification> {
  return db.updateTable('notifications').set({ message }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export function listNotifications(db: DbOrTx, userId: number): Promise<Notification[]> {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(NOTIFICATION_LIST_LIMIT)
    .execute();
}

export async function countUnread(db: DbOrTx, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('is_read', '=', 0)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Marks one of the user's own notifications read; undefined when it is not theirs or does not exist. */
export function markRead(db: DbOrTx, userId: number, id: number): Promise<Notification | undefined> {
  return db
    .updateTable('notifications')
    .set({ is_read: 1 })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

/** Bids on an auction since `since` (the burst a coalesced 'new_bid' notification counts). */
export async function countBidsSince(db: DbOrTx, auctionId: number, since: string): Promise<number> {
  const row = await db
    .selectFrom('bids')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('auction_id', '=', auctionId)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
