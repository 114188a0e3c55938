import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PAGE_SIZE } from '@shared/rules/limits';
import { api } from '../../../lib/api';
import { membersKey, salesKey } from '../../sales/api/keys';

/** Every cached page of the caller's block list (issue 24). */
export const blockedMembersKey = ['blocked-members'] as const;

/** GET /api/blocked-members/?page= : the caller's block list, newest block first. */
export const blockedMembersQuery = (page: number) =>
  queryOptions({
    queryKey: [...blockedMembersKey, page] as const,
    queryFn: ({ signal }) => api('GET /api/blocked-members/', { query: { page, page_size: PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });

export const useBlockedMembers = (page: number) => useQuery(blockedMembersQuery(page));

/** POST /api/blocked-members/ {user_id} → 201 (200 when already blocked) the blocked member. */
export const blockMember = (userId: number) => api('POST /api/blocked-members/', { body: { user_id: userId } });

/** DELETE /api/blocked-members/{user_id}/ → 204. */
export const unblockMember = (userId: number) => api('DELETE /api/blocked-members/:userId/', { params: { userId } });

/** Blocks or unblocks a member; the block list, member profiles and sales (their `blocked_by_viewer`) are read again. */
export function useBlockMember(block: boolean) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => (block ? blockMember(userId) : unblockMember(userId)),
    onSuccess: () => Promise.all([blockedMembersKey, membersKey, salesKey].map((queryKey) => qc.invalidateQueries({ queryKey }))),
  });
}
