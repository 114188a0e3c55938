/** The types of a list query, shared by auctions.repository.ts and auctions-search.repository.ts. */
import type { SelectQueryBuilder } from 'kysely';
import type { AuctionsTable, Database } from '../../db/types';
import type { AdminAuctionStatus } from '@shared/rules/admin';
import type { SearchTerm } from '@shared/rules/search';

/**
 * Which auctions a list shows.
 * - public: open (status active and end_date in the future) auctions of sellers who are not blocked;
 * - all: everything (admin), or only open (`active`: status active, end_date in the future) or ended ones
 *   (`ended`: closed, or end_date passed and not yet closed) — the status a card shows;
 * - seller / bidder / watcher: the user's own auctions / the auctions the user bid on / watches, ended ones included;
 * - member: a member's open auctions, for their public profile (issue 23; the member is not blocked, checked before).
 */
export type ListScope =
  | { kind: 'public' }
  | { kind: 'all'; status?: AdminAuctionStatus }
  | { kind: 'seller'; userId: number }
  | { kind: 'bidder'; userId: number }
  | { kind: 'watcher'; userId: number }
  | { kind: 'member'; userId: number };

export interface ListFilter {
  scope: ListScope;
  now: string;
  category?: string;
  /** searchTerm(q). */
  search?: SearchTerm;
  /** Whole dinars on the current price, bounds included (issue 28). */
  minPrice?: number;
  maxPrice?: number;
  /** normaliseForSearch(city), compared with auctions.city_norm (issue 28). */
  city?: string;
}

/** Whether the filter has a price or city filter (issue 28): such a count is counted, not kept. */
export function hasPriceOrCity(f: ListFilter): boolean {
  return f.minPrice !== undefined || f.maxPrice !== undefined || f.city !== undefined;
}

export type AuctionsQuery<O> = SelectQueryBuilder<Database & { a: AuctionsTable }, 'a', O>;
