import type { AppContext } from '../../context';
import type { User } from '../../db/types';
import { AppError } from '../../http/errors';
import { isoNow } from '../../lib/time';
import { srv } from '@shared/texts/server';
import { findUserById } from '../accounts/accounts.repository';
import { setBlocked } from './admin-users.repository';

/**
 * Blocks a user: blocked_at is set, every session of that user ends at once and its sockets leave the
 * user's room. An admin cannot block their own account.
 */
export async function blockUser(ctx: AppContext, admin: User, userId: number): Promise<User> {
  if (admin.id === userId) throw AppError.badRequest(srv.cannotBlockSelf, undefined, 'cannot_block_self');
  const user = await findUserById(ctx.db, userId);
  if (!user) throw AppError.notFound();
  const blockedAt = user.blocked_at ?? isoNow();
  if (!user.blocked_at) await setBlocked(ctx.db, userId, blockedAt);
  ctx.sessions.destroyUserSessions(userId);
  ctx.realtime.dropUser(userId);
  ctx.logger.info({ adminId: admin.id, userId }, 'user blocked');
  return { ...user, blocked_at: blockedAt };
}

export async function unblockUser(ctx: AppContext, admin: User, userId: number): Promise<User> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw AppError.notFound();
  if (user.blocked_at) await setBlocked(ctx.db, userId, null);
  ctx.logger.info({ adminId: admin.id, userId }, 'user unblocked');
  return { ...user, blocked_at: null };
}
