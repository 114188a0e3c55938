/** The member block list ("crna lista", issue 24): a member refuses another on their open auctions. */
import { z } from 'zod';
import { blockTexts } from '../texts/blocks';
import { idField } from './bids';
import { Paged } from './auctions';

/** POST /api/blocked-members/: the member to block. */
export const BlockMemberInput = z.object({ user_id: idField(blockTexts.userInvalid) });
export type BlockMemberInput = z.infer<typeof BlockMemberInput>;

/** One blocked member: their id and name, and when they were blocked. */
export const BlockedMember = z.object({ id: z.number(), first_name: z.string(), blocked_at: z.string() });
export type BlockedMember = z.infer<typeof BlockedMember>;

/** GET /api/blocked-members/: newest block first, paged as the sales lists are. */
export const BlockedMembersPage = Paged(BlockedMember);
export type BlockedMembersPage = z.infer<typeof BlockedMembersPage>;
