import type { AppContext } from '../../context';
import { sessionEnded, userChanged } from '../../events';
import type { DbOrTx, User } from '../../db/types';
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
import { appendAudit } from '../audit/audit.repository';
import { pageOf } from '../../lib/paging';

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
  return pageOf(count, query.page, size, rows.map(presentAdminUser));
}

/**
 * Blocks a user: blocked_at is set, every session of that user ends at once and its sockets leave the
 * user's room. An admin cannot block their own account. The block and its audit-log row commit together.
 */
export async function blockUser(ctx: AppContext, admin: User, userId: number): Promise<User> {
  const user = await ctx.db.transaction().execute((tx) => blockInTx(tx, admin, userId));
  await endSessionsOf(ctx, userId);
  ctx.logger.info({ adminId: admin.id, userId }, 'user blocked');
  return user;
}

/**
 * The block inside the caller's transaction (the admin route, a report's `block_owner`): blocked_at (kept when
 * already blocked), the member's maxima spent, the audit-log row. Then call endSessionsOf after the commit.
 */
export async function blockInTx(tx: DbOrTx, admin: User, userId: number, note = ''): Promise<User> {
  if (admin.id === userId) throw AppError.badRequest(srv.cannotBlockSelf, undefined, 'cannot_block_self');
  const user = await findUserById(tx, userId);
  if (!user) throw AppError.notFound();
  const now = isoAt(Date.now());
  const blockedAt = user.blocked_at ?? now;
  if (!user.blocked_at) await setBlocked(tx, userId, blockedAt);
  await cancelMaximaOf(tx, userId, blockedAt);
  await appendAudit(tx, { admin_id: admin.id, action: 'block_user', target_type: 'member', target_id: userId, note, created_at: now });
  return { ...user, blocked_at: blockedAt };
}

/** After a block commits: every session of the member ends and its sockets leave the user's room. */
export async function endSessionsOf(ctx: AppContext, userId: number): Promise<void> {
  await ctx.sessions.destroyUserSessions(userId);
  await ctx.events.publish(sessionEnded(userId));
}

export async function unblockUser(ctx: AppContext, admin: User, userId: number): Promise<User> {
  const user = await ctx.db.transaction().execute(async (tx) => {
    const found = await findUserById(tx, userId);
    if (!found) throw AppError.notFound();
    if (found.blocked_at) await setBlocked(tx, userId, null);
    await appendAudit(tx, { admin_id: admin.id, action: 'unblock_user', target_type: 'member', target_id: userId, created_at: isoAt(Date.now()) });
    return found;
  });
  // The seller's open auctions are listed again: the lists' cache must not answer without them.
  if (user.blocked_at) await ctx.events.publish([{ type: 'lists:changed' }, ...userChanged(userId)]);
  ctx.logger.info({ adminId: admin.id, userId }, 'user unblocked');
  return { ...user, blocked_at: null };
}
