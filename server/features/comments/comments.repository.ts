import type { Comment, DbOrTx } from '../../db/types';

export type CommentRow = Comment & { user_name: string; seller_id: number };

function withNames(db: DbOrTx) {
  return db
    .selectFrom('comments')
    .innerJoin('users', 'users.id', 'comments.user_id')
    .innerJoin('auctions', 'auctions.id', 'comments.auction_id')
    .selectAll('comments')
    .select(['users.first_name as user_name', 'auctions.seller_id as seller_id']);
}

/** Newest first. */
export function listComments(db: DbOrTx, auctionId: number): Promise<CommentRow[]> {
  return withNames(db)
    .where('comments.auction_id', '=', auctionId)
    .orderBy('comments.created_at', 'desc')
    .orderBy('comments.id', 'desc')
    .execute();
}

export function findComment(db: DbOrTx, id: number): Promise<CommentRow | undefined> {
  return withNames(db).where('comments.id', '=', id).executeTakeFirst();
}

export function insertComment(
  db: DbOrTx,
  c: { auction_id: number; user_id: number; content: string; created_at: string },
): Promise<Comment> {
  return db.insertInto('comments').values(c).returningAll().executeTakeFirstOrThrow();
}

export async function deleteComment(db: DbOrTx, id: number): Promise<boolean> {
  const r = await db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export function findAuctionRef(db: DbOrTx, id: number) {
  return db.selectFrom('auctions').select(['id', 'title', 'seller_id']).where('id', '=', id).executeTakeFirst();
}

/** The auction a comment is for, and whether its seller blocked `authorId` (issue 24) while it is open at `now`. */
export function findCommentTarget(db: DbOrTx, id: number, authorId: number, now: string) {
  return db
    .selectFrom('auctions as a')
    .select(['a.id', 'a.title', 'a.seller_id'])
    .select((eb) =>
      eb
        .exists(eb.selectFrom('member_blocks as mb').select('mb.blocked_id').whereRef('mb.blocker_id', '=', 'a.seller_id').where('mb.blocked_id', '=', authorId))
        .and(eb('a.status', '=', 'active'))
        .and(eb('a.end_date', '>', now))
        .as('blocked'),
    )
    .where('a.id', '=', id)
    .executeTakeFirst();
}
