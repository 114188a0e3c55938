import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { CommentResponse as Comment } from '@shared/schemas/comments';

export const commentsKey = (auctionId: number) => ['auctions', 'comments', auctionId] as const;

/** GET /api/comments/{auctionId}/ → newest first. */
export const fetchComments = (auctionId: number, signal?: AbortSignal) =>
  api('GET /api/comments/:auctionId/', { params: { auctionId }, signal });

export const commentsQuery = (auctionId: number) =>
  queryOptions({ queryKey: commentsKey(auctionId), queryFn: ({ signal }) => fetchComments(auctionId, signal) });

export const useComments = (auctionId: number) => useQuery(commentsQuery(auctionId));

/** POST /api/comments/create/ {auction_item_id, content} → 201 comment. */
export const createComment = (auctionId: number, content: string) =>
  api('POST /api/comments/create/', { body: { auction_item_id: auctionId, content } });

/** DELETE /api/comments/{id}/delete/ → 204. */
export const deleteComment = (commentId: number) => api('DELETE /api/comments/:commentId/delete/', { params: { commentId } });

/** Puts a comment into the cached list once (newest first); a live event may have added it already. */
export function addComment(list: Comment[] | undefined, c: Comment): Comment[] {
  const rest = (list ?? []).filter((x) => x.id !== c.id);
  return [c, ...rest];
}

export function useCreateComment(auctionId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (content: string) => createComment(auctionId, content),
    onSuccess: (c) => qc.setQueryData<Comment[]>(commentsKey(auctionId), (old) => addComment(old, c)),
  });
}

export function useDeleteComment(auctionId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (commentId: number) => deleteComment(commentId),
    onSuccess: (_v, commentId) =>
      qc.setQueryData<Comment[]>(commentsKey(auctionId), (old) => (old ?? []).filter((c) => c.id !== commentId)),
  });
}
