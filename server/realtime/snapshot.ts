import type { AuctionDetail } from '@shared/schemas/auctions';
import type { Db } from '../db/types';

export interface AuctionSnapshot {
  seq: number;
  auction: AuctionDetail;
}

const mediaUrl = (rel: string) => `/media/${rel}`;

/**
 * The detail snapshot of an auction together with its seq, read in one transaction so that the seq
 * describes exactly that snapshot. Undefined when the auction does not exist.
 *
 * Shape = GET /api/auction/{id}/ (AuctionDetail of shared/schemas/auctions.ts).
 */
export async function loadAuctionSnapshot(db: Db, auctionId: number): Promise<AuctionSnapshot | undefined> {
  return db.transaction().execute(async (tx) => {
    const a = await tx
      .selectFrom('auctions as a')
      .innerJoin('users as s', 's.id', 'a.seller_id')
      .select([
        'a.id',
        'a.title',
        'a.description',
        'a.current_price',
        'a.starting_price',
        'a.seller_id',
        's.first_name as seller_name',
        'a.end_date',
        'a.city',
        'a.phone_number',
        'a.category',
        'a.bid_count',
        'a.status',
        'a.winner_id',
        'a.created_at',
        'a.seq',
      ])
      .where('a.id', '=', auctionId)
      .executeTakeFirst();
    if (!a) return undefined;
    const images = await tx
      .selectFrom('auction_images')
      .select(['id', 'card_path', 'large_path'])
      .where('auction_id', '=', auctionId)
      .orderBy('position')
      .orderBy('id')
      .execute();
    return {
      seq: a.seq,
      auction: {
        id: a.id,
        title: a.title,
        description: a.description,
        current_price: a.current_price,
        starting_price: a.starting_price,
        seller: a.seller_id,
        seller_name: a.seller_name,
        end_date: a.end_date,
        city: a.city,
        phone_number: a.phone_number,
        category: a.category,
        bid_count: a.bid_count,
        status: a.status,
        winner: a.winner_id,
        created_at: a.created_at,
        images: images.map((i) => ({ id: i.id, image: mediaUrl(i.large_path), thumbnail: mediaUrl(i.card_path) })),
      },
    };
  });
}

/** Current seq of each existing auction among `ids`. */
export async function loadSeqs(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('auctions').select(['id', 'seq']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.seq]));
}
