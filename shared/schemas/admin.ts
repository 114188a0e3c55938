import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../rules/limits';
import { ADMIN_AUCTION_SORTS, ADMIN_AUCTION_STATUSES, ADMIN_USER_SEARCH_MAX } from '../rules/admin';
import { AdminUser } from './accounts';
import { ListQuery, Paged } from './auctions';
import { adminTexts } from '../texts/admin';

const intLike = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : v);
const blankToUndefined = (v: unknown) => (v === undefined || v === '' ? undefined : v);

const page = z.preprocess(
  (v) => blankToUndefined(intLike(v)),
  z.number({ error: adminTexts.badPage }).int(adminTexts.badPage).min(1, adminTexts.badPage).max(1_000_000, adminTexts.badPage).optional(),
);
/** Above MAX_PAGE_SIZE is clamped to it (like every list). */
const pageSize = z.preprocess(
  (v) => {
    const n = blankToUndefined(intLike(v));
    return typeof n === 'number' && !Number.isNaN(n) ? Math.min(n, MAX_PAGE_SIZE) : n;
  },
  z.number({ error: adminTexts.badPageSize }).int(adminTexts.badPageSize).min(1, adminTexts.badPageSize).optional(),
);

/**
 * GET /api/all-auction-items/ as an admin: the list query plus `status` (active / ended, blank = both) and
 * the bid-count sorts. An unknown `sort` falls back to the default, as on every list (the documented
 * contract of ListQuery); an unknown `status` is a 400.
 */
export const AdminAuctionsQuery = ListQuery.extend({
  status: z.preprocess(blankToUndefined, z.enum(ADMIN_AUCTION_STATUSES, { error: adminTexts.badStatus }).optional()),
  sort: z.enum(ADMIN_AUCTION_SORTS).optional().default('endDateAsc').catch('endDateAsc'),
});
export type AdminAuctionsQuery = z.output<typeof AdminAuctionsQuery>;

/**
 * GET /api/admin/users/?q=&page=&page_size=. `q` (trimmed, blank = everyone) matches first name or e-mail
 * as a substring, any case, with or without diacritics (normaliseForSearch). Without `page` the answer is
 * the plain array of before (every match); with `page`, `{count, next, previous, results}`.
 */
export const AdminUsersQuery = z.object({
  q: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : v),
    z.string({ error: adminTexts.badQuery }).max(ADMIN_USER_SEARCH_MAX, adminTexts.userSearchTooLong).optional(),
  ),
  page,
  page_size: pageSize,
});
export type AdminUsersQuery = z.output<typeof AdminUsersQuery>;

export const AdminUsersPage = Paged(AdminUser);
/** GET /api/admin/users/: the plain array without `page`, the page with it. */
export const AdminUsersResponse = z.union([z.array(AdminUser), AdminUsersPage]);
export type AdminUsersResponse = z.infer<typeof AdminUsersResponse>;
/** POST /api/admin/users/{id}/block/ and /unblock/: the user after the change. */
export const AdminUserUpdatedResponse = AdminUser.extend({ detail: z.string() });
export type AdminUserUpdatedResponse = z.infer<typeof AdminUserUpdatedResponse>;
