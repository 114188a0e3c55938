import type { AppContext } from '../../context';
import { sessionEnded } from '../../events';
import type { User } from '../../db/types';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import { srv } from '@shared/texts/server';
import { findUserById } from '../accounts/accounts.repository';
import { escapeLike, normaliseForSearch } from '@shared/rules/search';
import { PAGE_SIZE } from '@shared/rules/limits';
import type { AdminUser } from '@shared/schemas/accounts';
import type { AdminUsersQuery } from '@shared/schemas/admin';
import type { Paged } from '@shared/schemas/auctions';
import { cancelMaximaOf } from '../bids/bids.repository';
import { fillSearchText, listUsers, pageUsers, setBlocked, type UserFilter } from './admin-users.repository';
import { presentAdminUser } from './admin-users.presenter';

/**
 * GET /api/admin/users/: without `page` the plain array of every matching user (the answer before paging
 * existed, kept for its clients); with `page` the paged `{count, next, previous, results}` of the other lists
 * (PAGE_SIZE a page unless `page_size`). Oldest first either way.
 */
export async function listAdminUsers(ctx: AppContext, query: AdminUsersQuery): Promise<AdminUser[] | Paged<AdminUser>> {
  const search = query.q ? normaliseForSearch(query.q) : '';
  const filter: UserFilter = { search: search ? escapeLike(search) : undefined };
  if (filter.search) await fillSearchText(ctx.db);
  if (query.page === undefined) return (await listUsers(ctx.db, filter, query.page_size)).map(presentAdminUser);
  const size = query.page_size ?? PAGE_SIZE;
  const { rows, count } = await pageUsers(ctx.db, filter, size, (query.page - 1) * size);
  return {
    count,
    next: query.page * size < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results: rows.map(presentAdminUser),
  };
}

/**
 * Blocks a user: blocked_at is set, every session of that user ends at once and its sockets leave the
 * user's room. An admin cannot block their own account.
 */
export async function blockUser(ctx: AppContext, admin: User, userId: number): Promise<User> {
  if (admin.id === userId) throw AppError.badRequest(srv.cannotBlockSelf, undefined, 'cannot_block_self');
  const user = await findUserById(ctx.db, userId);
  if (!user) throw AppError.notFound();
  const blockedAt = user.blocked_at ?? isoAt(Date.now());
  if (!user.blocked_at) await setBlocked(ctx.db, userId, blockedAt);
  await cancelMaximaOf(ctx.db, userId, blockedAt);
  await ctx.sessions.destroyUserSessions(userId);
  await ctx.events.publish(sessionEnded(userId));
  ctx.logger.info({ adminId: admin.id, userId }, 'user blocked');
  return { ...user, blocked_at: blockedAt };
}

export async function unblockUser(ctx: AppContext, admin: User, userId: number): Promise<User> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw AppError.notFound();
  if (user.blocked_at) {
    await setBlocked(ctx.db, userId, null);
    // The seller's open auctions are listed again: the lists' cache must not answer without them.
    await ctx.events.publish([{ type: 'lists:changed' }]);
  }
  ctx.logger.info({ adminId: admin.id, userId }, 'user unblocked');
  return { ...user, blocked_at: null };
}
