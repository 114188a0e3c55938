import { isPostgres } from '../../db/dialect';
import type { DbOrTx } from '../../db/types';
import type { StoredImage } from './media-store';

export async function listImages(db: DbOrTx, auctionId: number) {
  return db
    .selectFrom('auction_images')
    .select(['id', 'card_path', 'large_path', 'position'])
    .where('auction_id', '=', auctionId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** An auction's image files with their sizes, in display order (what a relist copies, issue 26). */
export async function imageFilesOf(db: DbOrTx, auctionId: number): Promise<StoredImage[]> {
  return db
    .selectFrom('auction_images')
    .select(['card_path', 'large_path', 'width', 'height'])
    .where('auction_id', '=', auctionId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/**
 * Inside a transaction: serialises the image writes of one auction (count then append, read then reorder).
 * SQLite serialises every writer already; on PostgreSQL the auction's row is locked until commit, so two
 * uploads at once cannot both see room for their images, nor both take the next position.
 */
export async function lockImagesOf(tx: DbOrTx, auctionId: number): Promise<void> {
  if (isPostgres(tx)) await tx.selectFrom('auctions').select('id').where('id', '=', auctionId).forUpdate().execute();
}

export async function countImages(db: DbOrTx, auctionId: number): Promise<number> {
  const row = await db
    .selectFrom('auction_images')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('auction_id', '=', auctionId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Appends images after the current last position, in the given order. */
export async function appendImages(db: DbOrTx, auctionId: number, images: StoredImage[], now: string): Promise<void> {
  const last = await db
    .selectFrom('auction_images')
    .select((eb) => eb.fn.max('position').as('p'))
    .where('auction_id', '=', auctionId)
    .executeTakeFirst();
  let position = Number(last?.p ?? -1);
  for (const img of images) {
    position += 1;
    await db.insertInto('auction_images').values({ auction_id: auctionId, position, ...img, created_at: now }).execute();
  }
}

export async function setPositions(db: DbOrTx, auctionId: number, orderedIds: number[]): Promise<void> {
  for (const [position, id] of orderedIds.entries()) {
    await db.updateTable('auction_images').set({ position }).where('id', '=', id).where('auction_id', '=', auctionId).execute();
  }
}

export async function deleteImage(db: DbOrTx, auctionId: number, imageId: number) {
  return db
    .deleteFrom('auction_images')
    .where('id', '=', imageId)
    .where('auction_id', '=', auctionId)
    .returning(['card_path', 'large_path'])
    .executeTakeFirst();
}

export type ImageRow = { id: number; auction_id: number; card_path: string; large_path: string; position: number };

/**
 * Every image of every auction in `auctionIds`, in display order (position, then id), grouped by auction:
 * one statement for a whole page of cards (no query per card). Auctions without images are absent from the map.
 */
export async function imagesForAuctions(db: DbOrTx, auctionIds: readonly number[]): Promise<Map<number, ImageRow[]>> {
  const byAuction = new Map<number, ImageRow[]>();
  if (auctionIds.length === 0) return byAuction;
  const rows = await db
    .selectFrom('auction_images')
    .select(['id', 'auction_id', 'card_path', 'large_path', 'position'])
    .where('auction_id', 'in', [...new Set(auctionIds)])
    .orderBy('auction_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = byAuction.get(row.auction_id);
    if (list) list.push(row);
    else byAuction.set(row.auction_id, [row]);
  }
  return byAuction;
}
