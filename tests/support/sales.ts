/** Sales for tests (issue 23): an auction that ended with a winner, straight in the database. */
import type { AppContext } from '../../server/context';
import type { Auction } from '../../server/db/types';
import { isoAt } from '../../server/lib/time';
import { createAuction, type AuctionOpts } from './auctions';

export interface SaleOpts extends AuctionOpts {
  /** Milliseconds since the end (default one minute). */
  endedMsAgo?: number;
  price?: number;
}

/**
 * An auction of `sellerId` that the closer has closed with `winnerId` as winner at `price` (one bid row of the
 * winner, bid_count 1): a sale, as far as every rule is concerned.
 */
export async function saleOf(ctx: AppContext, sellerId: number, winnerId: number, opts: SaleOpts = {}): Promise<Auction> {
  const ended = Date.now() - (opts.endedMsAgo ?? 60_000);
  const price = opts.price ?? 1500;
  const a = await createAuction(ctx, sellerId, { starting_price: 1000, ...opts, current_price: price, bid_count: 1, endsInMs: ended - Date.now(), status: 'ended' });
  await ctx.db.insertInto('bids').values({ auction_id: a.id, bidder_id: winnerId, amount: price, created_at: isoAt(ended - 1000) }).execute();
  return ctx.db
    .updateTable('auctions')
    .set({ winner_id: winnerId, closed_at: isoAt(ended) })
    .where('id', '=', a.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A rating row straight in the database (`rater` rates `rated`, the other party of that sale). */
export async function ratingOf(
  ctx: AppContext,
  sale: Pick<Auction, 'id' | 'title' | 'seller_id'>,
  raterId: number,
  ratedId: number,
  value: 'positive' | 'negative' = 'positive',
  comment = 'Sve je bilo u redu.',
): Promise<number> {
  const row = await ctx.db
    .insertInto('ratings')
    .values({
      auction_id: sale.id,
      auction_title: sale.title,
      rater_id: raterId,
      rated_id: ratedId,
      role: ratedId === sale.seller_id ? 'seller' : 'buyer',
      value,
      comment,
      created_at: isoAt(Date.now()),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
