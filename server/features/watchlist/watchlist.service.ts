import type { AppContext } from '../../context';
import { isForeignKeyViolation } from '../../db/dialect';
import type { User } from '../../db/types';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import type { AuctionCard, ListQuery, Paged } from '@shared/schemas/auctions';
import { auctionTexts } from '@shared/texts/auctions';
import type { WatchResponse } from '@shared/schemas/watchlist';
import { findAuction } from '../auctions/auctions.repository';
import { listAuctions } from '../auctions/auctions.service';
import { countWatchers, deleteWatch, insertWatch } from './watchlist.repository';

export interface Watched {
  /** The watch started now (201); false when it already existed (200). */
  created: boolean;
  body: WatchResponse;
}

/** Starts watching an auction (open or ended); idempotent. 404 for an auction that does not exist. */
export async function watchAuction(ctx: AppContext, user: User, auctionId: number): Promise<Watched> {
  if (!(await findAuction(ctx.db, auctionId))) throw AppError.notFound(auctionTexts.notFound);
  const created = await insertWatch(ctx.db, user.id, auctionId, isoAt(Date.now())).catch((err: unknown) => {
    // Deleted between the check and the insert.
    if (isForeignKeyViolation(err)) throw AppError.notFound(auctionTexts.notFound);
    throw err;
  });
  const watchCount = await countWatchers(ctx.db, auctionId);
  return { created, body: { auction_item_id: auctionId, watched: true, watch_count: watchCount } };
}

/** Stops watching; the same answer whether or not it was watched (or exists). */
export async function unwatchAuction(ctx: AppContext, user: User, auctionId: number): Promise<void> {
  await deleteWatch(ctx.db, user.id, auctionId);
}

/** The user's watched auctions as cards, ended ones included, paged like every list. */
export function listWatched(ctx: AppContext, user: User, query: ListQuery): Promise<AuctionCard[] | Paged<AuctionCard>> {
  return listAuctions(ctx, { kind: 'watcher', userId: user.id }, query, user.id);
}
