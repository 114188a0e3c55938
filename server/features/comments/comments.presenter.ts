import type { CommentResponse } from '@shared/schemas/comments';
import type { CommentRow } from './comments.repository';

export function presentComment(c: CommentRow): CommentResponse {
  return {
    id: c.id,
    userId: c.user_id,
    user: c.user_name,
    content: c.content,
    created_at: c.created_at,
    is_seller: c.user_id === c.seller_id,
  };
}
