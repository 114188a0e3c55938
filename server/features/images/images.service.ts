import type { AppContext } from '../../context';
import type { User } from '../../db/types';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import { IMAGES_MAX } from '@shared/rules/limits';
import type { AuctionImage } from '@shared/schemas/auctions';
import { auctionTexts } from '@shared/texts/auctions';
import { findAuction } from '../auctions/auctions.repository';
import { presentImage } from '../auctions/auctions.presenter';
import { bumpSeq } from '../auctions/seq.repository';
import { lockEditable, notEditable, updatedEvent } from '../auctions/auction-edits.service';
import { isEditable } from '@shared/rules/auction-edits';
import { unitOfWork } from '../../unit-of-work';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types';
import * as repo from './images.repository';
import { processImage, removeFiles, storeImage, type StoredImage } from './media-store';

export interface Upload {
  originalname: string;
  buffer: Buffer;
}

/** The auction, when `user` is its seller: 404 for an unknown auction, 403 for anyone else. */
export async function requireSellerOf(ctx: AppContext, user: User, auctionId: number) {
  const auction = await findAuction(ctx.db, auctionId);
  if (!auction) throw AppError.notFound(auctionTexts.notFound);
  if (auction.seller_id !== user.id) throw AppError.forbidden(auctionTexts.imagesForbidden);
  return auction;
}

/**
 * An image change (issue 26) in one transaction under the auction's row lock, allowed only while the auction is
 * open and without bids (`firstUpload`: an auction without images takes its first upload at any time). The
 * change takes the next seq, and watchers get `auction:updated` with the new images after the commit.
 */
async function changeImages(ctx: AppContext, auctionId: number, change: (tx: Transaction<Database>) => Promise<void>, firstUpload = false): Promise<AuctionImage[]> {
  return unitOfWork(
    ctx,
    async (tx) => {
      if (!(firstUpload && (await repo.countImages(tx, auctionId)) === 0)) await lockEditable(tx, auctionId, Date.now());
      else await repo.lockImagesOf(tx, auctionId);
      await change(tx);
      const seq = await bumpSeq(tx, auctionId);
      const images = (await repo.listImages(tx, auctionId)).map(presentImage);
      return { images, events: seq === undefined ? [] : [updatedEvent(auctionId, seq, { images, first_image: images[0]?.thumbnail ?? null })] };
    },
    { events: (r) => r.events },
  ).then((r) => r.images);
}

/**
 * Refuses early (before a file is read) what the lock would refuse: a change after the first bid or the end,
 * except an upload to an auction without images.
 */
export async function assertImagesEditable(ctx: AppContext, auction: { id: number; status: 'active' | 'ended'; end_date: string; bid_count: number }, upload: boolean): Promise<void> {
  if (isEditable(auction, Date.now())) return;
  if (upload && (await repo.countImages(ctx.db, auction.id)) === 0) return;
  throw notEditable();
}

const tooMany = () => AppError.field('image', auctionTexts.imagesTooMany);

/**
 * Adds uploads after the existing images (upload order = display order). Every file is checked and
 * re-encoded before anything is stored, so one bad file refuses the whole batch.
 */
export async function addImages(ctx: AppContext, auctionId: number, files: Upload[]): Promise<AuctionImage[]> {
  if (files.length === 0) throw AppError.field('image', auctionTexts.imagesRequired);
  const count = await repo.countImages(ctx.db, auctionId);
  if (count + files.length > IMAGES_MAX) throw tooMany();
  // One at a time: a 40-megapixel decode is large, and six at once would multiply the peak memory.
  const processed = [];
  for (const f of files) processed.push(await processImage(f.buffer, safeName(f.originalname)));
  const stored: StoredImage[] = [];
  try {
    for (const p of processed) stored.push(await storeImage(ctx.config.mediaDir, p));
    // Count again inside the transaction: two uploads at once must not pass 6 together.
    return await changeImages(
      ctx,
      auctionId,
      async (tx) => {
        if ((await repo.countImages(tx, auctionId)) + stored.length > IMAGES_MAX) throw tooMany();
        await repo.appendImages(tx, auctionId, stored, isoAt(Date.now()));
      },
      true,
    );
  } catch (err) {
    await removeFiles(ctx.config.mediaDir, stored.flatMap((s) => [s.card_path, s.large_path]));
    throw err;
  }
}

/** New display order: `imageIds` must list every image of the auction exactly once. */
export async function reorderImages(ctx: AppContext, auctionId: number, imageIds: number[]): Promise<AuctionImage[]> {
  return changeImages(ctx, auctionId, async (tx) => {
    const current = (await repo.listImages(tx, auctionId)).map((i) => i.id);
    const wanted = new Set(imageIds);
    if (wanted.size !== imageIds.length || wanted.size !== current.length || current.some((id) => !wanted.has(id))) {
      throw AppError.field('image_ids', auctionTexts.imagesOrderInvalid);
    }
    await repo.setPositions(tx, auctionId, imageIds);
  });
}

export async function deleteImage(ctx: AppContext, auctionId: number, imageId: number): Promise<void> {
  let gone: { card_path: string; large_path: string } | undefined;
  await changeImages(ctx, auctionId, async (tx) => {
    gone = await repo.deleteImage(tx, auctionId, imageId);
    if (!gone) throw AppError.notFound(auctionTexts.imageNotFound);
  });
  if (gone) await removeFiles(ctx.config.mediaDir, [gone.card_path, gone.large_path]);
}

/** A file name fit for a message: no path, no control characters, not too long. */
export function safeName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 100);
  return clean || 'Slika';
}
