import type { AppContext } from '../../server/context';
import type { Auction } from '../../server/db/types';
import { isoAt } from '../../server/lib/time';
import { normaliseForSearch } from '@shared/rules/search';

let n = 0;

export interface AuctionOpts {
  title?: string;
  description?: string;
  category?: string;
  city?: string;
  phone_number?: string;
  starting_price?: number;
  current_price?: number;
  bid_count?: number;
  /** Milliseconds from now until the end (default one day). */
  endsInMs?: number;
  status?: 'active' | 'ended';
  search_text?: string;
  created_at?: string;
  /** "Kupi odmah" price and hidden reserve (issue 25); none by default. */
  buy_now_price?: number | null;
  reserve_price?: number | null;
  /** How it ended (issue 25); with `status: 'ended'` and a past `endsInMs` an ended auction in one row. */
  outcome?: 'sold' | 'unsold' | 'reserve_not_met' | null;
}

/** Inserts an auction row straight into the database (no images). */
export async function createAuction(ctx: AppContext, sellerId: number, opts: AuctionOpts = {}): Promise<Auction> {
  n += 1;
  const now = Date.now();
  const end = new Date(now + (opts.endsInMs ?? 24 * 3600 * 1000)).toISOString();
  const title = opts.title ?? `Predmet ${n}`;
  const description = opts.description ?? `Opis predmeta ${n} u odličnom stanju`;
  const price = opts.starting_price ?? 1000;
  return ctx.db
    .insertInto('auctions')
    .values({
      seller_id: sellerId,
      title,
      description,
      category: opts.category ?? 'electronics',
      city: opts.city ?? 'Beograd',
      city_norm: normaliseForSearch(opts.city ?? 'Beograd'),
      phone_number: opts.phone_number ?? '0641234567',
      starting_price: price,
      current_price: opts.current_price ?? price,
      bid_count: opts.bid_count ?? 0,
      end_date: end,
      original_end_date: end,
      status: opts.status ?? 'active',
      winner_id: null,
      search_text: opts.search_text ?? normaliseForSearch(`${title} ${description}`),
      created_at: opts.created_at ?? isoAt(now),
      closed_at: null,
      buy_now_price: opts.buy_now_price ?? null,
      reserve_price: opts.reserve_price ?? null,
      outcome: opts.outcome ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An auction of `sellerId` that ended without bids (outcome `unsold`): what a seller may relist (issue 26). */
export function createUnsoldAuction(ctx: AppContext, sellerId: number, opts: AuctionOpts = {}): Promise<Auction> {
  return createAuction(ctx, sellerId, { endsInMs: -60_000, status: 'ended', outcome: 'unsold', ...opts });
}
