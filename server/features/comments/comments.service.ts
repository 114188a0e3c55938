import type { AppContext } from '../../context';
import type { Comment, DbOrTx, User } from '../../db/types';
import { appendAudit } from '../audit/audit.repository';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import { notificationEvents, type DomainEvent, type NotificationChange } from '../../events';
import { unitOfWork } from '../../unit-of-work';
import type { CommentResponse, CreateCommentInput } from '@shared/schemas/comments';
import { notifyNewComment } from '../notifications/notifications.service';
import { bumpSeq } from '../auctions/seq.repository';
import { deleteComment, findCommentTarget, findComment, insertComment } from './comments.repository';
import { blockTexts } from '@shared/texts/blocks';
import { presentComment } from './comments.presenter';

export interface CreatedComment {
  comment: CommentResponse;
  /** Published after the commit: `comment:created`, then the seller's notification. */
  events: DomainEvent[];
}

/**
 * Adds a comment; the seller is notified unless they wrote it. Unknown auction → 404; a member the seller blocked
 * (issue 24) → 400 `blocked_by_seller` while the auction is open.
 */
export async function createComment(ctx: AppContext, author: User, input: CreateCommentInput): Promise<CreatedComment> {
  const now = isoAt(Date.now());
  const result = await unitOfWork(ctx, async (tx): Promise<CreatedComment | null | 'blocked'> => {
    const auction = await findCommentTarget(tx, input.auction_item_id, author.id, now);
    if (!auction) return null;
    if (auction.blocked) return 'blocked';
    const row = await insertComment(tx, { auction_id: auction.id, user_id: author.id, content: input.content, created_at: now });
    const seq = (await bumpSeq(tx, auction.id))!;
    const notifications: NotificationChange[] = [];
    if (auction.seller_id !== author.id) {
      notifications.push(await notifyNewComment(tx, auction.seller_id, auction, author.first_name, input.content, now));
    }
    const comment = presentComment({ ...row, user_name: author.first_name, seller_id: auction.seller_id });
    return { comment, events: [{ type: 'comment:created', payload: { auction_id: auction.id, seq, comment } }, ...notificationEvents(notifications)] };
  }, { events: (r) => (typeof r === 'object' ? r?.events : null) });
  if (!result) throw AppError.notFound();
  if (result === 'blocked') throw AppError.badRequest(blockTexts.blockedBySeller, undefined, 'blocked_by_seller');
  return result;
}

/**
 * Its author or the auction's seller (or an admin, as moderator) deletes a comment; publishes `comment:deleted`.
 * A delete by an admin is written to the audit log in the same transaction.
 */
export async function removeComment(ctx: AppContext, user: User, commentId: number): Promise<void> {
  const result = await unitOfWork(ctx, async (tx) => {
    const comment = await findComment(tx, commentId);
    if (!comment) return 'not_found' as const;
    if (comment.user_id !== user.id && comment.seller_id !== user.id && !user.is_admin) return 'forbidden' as const;
    return deleteCommentInTx(tx, user, comment);
  }, { events: (r) => (typeof r === 'string' ? null : r) });
  if (result === 'not_found') throw AppError.notFound();
  if (result === 'forbidden') throw AppError.forbidden();
}

/** The delete inside the caller's transaction, once allowed (the route above, a report's `delete_target`). */
export async function deleteCommentInTx(tx: DbOrTx, user: User, comment: Pick<Comment, 'id' | 'auction_id'>, note = ''): Promise<DomainEvent[]> {
  await deleteComment(tx, comment.id);
  const seq = (await bumpSeq(tx, comment.auction_id))!;
  if (user.is_admin) await appendAudit(tx, { admin_id: user.id, action: 'delete_comment', target_type: 'comment', target_id: comment.id, note, created_at: isoAt(Date.now()) });
  return [{ type: 'comment:deleted', payload: { auction_id: comment.auction_id, seq, comment_id: comment.id } }];
}
