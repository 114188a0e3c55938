import { z } from 'zod';
import { sr } from '../texts/sr';
import { COMMENT_MAX } from '../rules/limits';
import { idField } from './bids';
import { commentTexts } from '../texts/comments';

/** Trimmed; empty or whitespace-only and > 300 characters give the spec's messages. */
export const CommentContent = z
  .string({ error: sr.comments.required })
  .trim()
  .min(1, sr.comments.required)
  .max(COMMENT_MAX, sr.comments.tooLong);

export const CreateCommentInput = z.object({
  auction_item_id: idField(commentTexts.auctionInvalid),
  content: CommentContent,
});
export type CreateCommentInput = z.infer<typeof CreateCommentInput>;

/** A comment as spec §3 gives it, plus `is_seller` for the '(Prodavac)' label. */
export const CommentResponse = z.object({
  id: z.number(),
  userId: z.number(),
  user: z.string(),
  content: z.string(),
  created_at: z.string(),
  is_seller: z.boolean(),
});
export type CommentResponse = z.infer<typeof CommentResponse>;
/** GET /api/comments/{auctionId}/, newest first. */
export const CommentListResponse = z.array(CommentResponse);

/** Socket events to room auction:{id}. */
export const CommentCreatedEvent = z.object({ auction_id: z.number(), seq: z.number(), comment: CommentResponse });
export type CommentCreatedEvent = z.infer<typeof CommentCreatedEvent>;
export const CommentDeletedEvent = z.object({ auction_id: z.number(), seq: z.number(), comment_id: z.number() });
export type CommentDeletedEvent = z.infer<typeof CommentDeletedEvent>;
