import type { AppContext } from '../../context';
import type { User } from '../../db/types';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import { NO_EVENTS } from '../../events';
import { unitOfWork } from '../../unit-of-work';
import type { Paged } from '@shared/schemas/auctions';
import type { BlockedMember } from '@shared/schemas/blocks';
import type { PageQuery } from '@shared/schemas/sales';
import { MAX_BLOCKED_MEMBERS } from '@shared/rules/blocks';
import { blockTexts } from '@shared/texts/blocks';
import { pageOf } from '../../lib/paging';
import { countBlocks, deleteBlock, findBlock, findUserRef, insertBlock, listBlocks, lockBlocker, spendMaximaOnAuctionsOf } from './blocks.repository';

export interface Blocked {
  /** The block was stored now (201); false when it already existed (200). */
  created: boolean;
  body: BlockedMember;
}

const refuse = (message: string, code = 'invalid') => AppError.field('user_id', message, 400, code);

/**
 * Blocks a member (issue 24, docs/bidding.md): from now on they cannot bid, set a maximum, buy now or comment
 * on the caller's open auctions, and their active maxima there are spent in the same transaction. Oneself or an
 * unknown id → 400; at most MAX_BLOCKED_MEMBERS; blocking again answers the first block (200).
 */
export async function blockMember(ctx: AppContext, blocker: User, blockedId: number): Promise<Blocked> {
  if (blockedId === blocker.id) throw refuse(blockTexts.blockSelf);
  const now = isoAt(Date.now());
  const result = await unitOfWork(
    ctx,
    async (tx): Promise<Blocked | AppError> => {
      const target = await findUserRef(tx, blockedId);
      if (!target) return refuse(blockTexts.unknownMember);
      const existing = await findBlock(tx, blocker.id, blockedId);
      if (existing) return { created: false, body: existing };
      await lockBlocker(tx, blocker.id);
      if ((await countBlocks(tx, blocker.id)) >= MAX_BLOCKED_MEMBERS) return refuse(blockTexts.tooMany, 'too_many_blocked');
      const created = await insertBlock(tx, blocker.id, blockedId, now);
      if (created) await spendMaximaOnAuctionsOf(tx, blocker.id, blockedId, now);
      return { created, body: (await findBlock(tx, blocker.id, blockedId)) ?? { ...target, blocked_at: now } };
    },
    { events: () => NO_EVENTS },
  );
  if (result instanceof AppError) throw result;
  return result;
}

/** Ends a block; the same answer whether or not there was one. Oneself or an unknown id → 400, as for a block. */
export async function unblockMember(ctx: AppContext, blocker: User, blockedId: number): Promise<void> {
  if (blockedId === blocker.id) throw refuse(blockTexts.blockSelf);
  if (!(await findUserRef(ctx.db, blockedId))) throw refuse(blockTexts.unknownMember);
  await deleteBlock(ctx.db, blocker.id, blockedId);
}

/** The caller's block list, newest first, paged as the sales lists are. */
export async function listBlockedMembers(ctx: AppContext, blocker: User, query: PageQuery): Promise<Paged<BlockedMember>> {
  const { page, page_size: size } = query;
  const [count, rows] = await Promise.all([countBlocks(ctx.db, blocker.id), listBlocks(ctx.db, blocker.id, size, (page - 1) * size)]);
  return pageOf(count, page, size, rows);
}
