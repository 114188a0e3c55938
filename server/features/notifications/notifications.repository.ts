import { precompiled } from '../../db/precompiled';
import type { DbOrTx, Notification } from '../../db/types';
import type { NotificationKind } from '@shared/schemas/notifications';

/** How many notifications GET /api/notifications/ answers at most (newest first). */
export const NOTIFICATION_LIST_LIMIT = 200;

type NewNotification = { user_id: number; auction_id: number | null; kind: NotificationKind; message: string; created_at: string; bids_before: number | null };

const insertOne = precompiled((db: DbOrTx, n: NewNotification) =>
  db
    .insertInto('notifications')
    .values({ user_id: n.user_id, auction_id: n.auction_id, kind: n.kind, message: n.message, created_at: n.created_at, bids_before: n.bids_before, is_read: 0 })
    .returningAll(),
);

/** `bids_before`: for 'new_bid' only, the auction's bid_count before the request's rows (the burst's start). */
export async function insertNotification(
  db: DbOrTx,
  n: Omit<NewNotification, 'bids_before'> & { bids_before?: number | null },
): Promise<Notification> {
  return (await insertOne(db, { ...n, bids_before: n.bids_before ?? null }))[0]!;
}

const recentNewBidOf = precompiled((db: DbOrTx, p: { userId: number; auctionId: number; since: string }) =>
  db
    .selectFrom('notifications as n')
    .selectAll('n')
    .select((eb) => [
      // Only for a notification made before bids_before existed (migration 2026-11-24-1500): counted from the bids.
      eb
        .case()
        .when('n.bids_before', 'is', null)
        .then(
          eb
            .selectFrom('bids')
            .select((b) => b.fn.countAll<number>().as('c'))
            .where('bids.auction_id', '=', p.auctionId)
            .whereRef('bids.created_at', '>=', 'n.created_at'),
        )
        .end()
        .as('bids_since'),
      eb
        .selectFrom('notifications as u')
        .select((b) => b.fn.countAll<number>().as('c'))
        .where('u.user_id', '=', p.userId)
        .where('u.is_read', '=', 0)
        .as('unread'),
    ])
    .where('n.user_id', '=', p.userId)
    .where('n.auction_id', '=', p.auctionId)
    .where('n.kind', '=', 'new_bid')
    .where('n.is_read', '=', 0)
    .where('n.created_at', '>=', p.since)
    .orderBy('n.id', 'desc')
    .limit(1),
);

/**
 * The seller's unread 'new_bid' notification of this auction created at or after `since`, if any, with the
 * seller's unread count: one statement for every accepted bid on a hot auction (it runs under the auction's
 * lock). The burst it counts is the auction's bid_count now minus its `bids_before`; `bidsSince` is the count
 * of bids since it was made, read only for a notification without `bids_before` (made before the column).
 */
export async function findRecentNewBid(
  db: DbOrTx,
  userId: number,
  auctionId: number,
  since: string,
): Promise<{ notification: Notification; bidsSince: number | null; unread: number } | undefined> {
  const row = (await recentNewBidOf(db, { userId, auctionId, since }))[0];
  if (!row) return undefined;
  const { bids_since, unread, ...notification } = row;
  return { notification, bidsSince: bids_since === null || bids_since === undefined ? null : Number(bids_since), unread: Number(unread ?? 0) };
}

const updateMessageOf = precompiled((db: DbOrTx, p: { id: number; message: string }) =>
  db.updateTable('notifications').set({ message: p.message }).where('id', '=', p.id).returningAll(),
);

export async function updateNotificationMessage(db: DbOrTx, id: number, message: string): Promise<Notification> {
  const row = (await updateMessageOf(db, { id, message }))[0];
  if (!row) throw new Error(`notification ${id} is gone`);
  return row;
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

const unreadOf = precompiled((db: DbOrTx, p: { userId: number }) =>
  db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', p.userId).where('is_read', '=', 0),
);

export async function countUnread(db: DbOrTx, userId: number): Promise<number> {
  return Number((await unreadOf(db, { userId }))[0]?.n ?? 0);
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
