/**
 * Admin list options, kept free of zod so that the admin page can import them without the schema bundle
 * (like shared/rules/sorts.ts); shared/schemas/admin.ts builds the query schemas from them.
 */
import { SORTS } from './sorts';

/** The list sorts plus bid count (admin only: GET /api/all-auction-items/ for an admin). */
export const ADMIN_AUCTION_SORTS = [...SORTS, 'bidsDesc', 'bidsAsc'] as const;
export type AdminAuctionSort = (typeof ADMIN_AUCTION_SORTS)[number];

/** `status` of the admin auction list: open auctions (active, end not passed) or ended ones. */
export const ADMIN_AUCTION_STATUSES = ['active', 'ended'] as const;
export type AdminAuctionStatus = (typeof ADMIN_AUCTION_STATUSES)[number];

/** Longest user search (`q` of GET /api/admin/users/), after trimming. */
export const ADMIN_USER_SEARCH_MAX = 100;
