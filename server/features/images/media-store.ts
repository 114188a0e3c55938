import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../http/errors';
import { auctionTexts } from '@shared/texts/auctions';

/** Kinds we accept, decided from the bytes (never the name or the declared type). */
const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
/** Refuses decompression bombs before decoding: 40 megapixels is above any phone camera. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Card size: what lists show (cropped to 4:3). */
export const CARD_SIZE = { width: 480, height: 360 } as const;
/** Large size: the detail slideshow, longest side at most 1600 px, never enlarged. */
export const LARGE_MAX = 1600;

export interface ProcessedImage {
  card: Buffer;
  large: Buffer;
  width: number;
  height: number;
}

export interface StoredImage {
  card_path: string;
  large_path: string;
  width: number;
  height: number;
}

/** Public URL of a stored file (served by the /media static route). */
export function mediaUrl(relPath: string): string {
  return `/media/${relPath}`;
}

/**
 * Sniffs, decodes and re-encodes one upload. EXIF orientation is applied, then every piece of metadata
 * (EXIF with GPS, ICC, XMP, comments) is dropped because sharp writes none unless asked to.
 * Throws a 400 AppError with a Serbian message that names the file.
 */
export async function processImage(buf: Buffer, name: string): Promise<ProcessedImage> {
  // file-type, like sharp below, is loaded on the first upload, not at start.
  const { fileTypeFromBuffer } = await import('file-type');
  const kind = await fileTypeFromBuffer(buf);
  if (!kind || !ACCEPTED.has(kind.mime)) throw AppError.field('image', auctionTexts.imageNotImage(name));
  // Loaded on first use, not at start: sharp is the slowest module to load (docs/performance.md, B4).
  const { default: sharp } = await import('sharp');
  try {
    const base = sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS, animated: false, failOn: 'error' }).rotate();
    const large = await base
      .clone()
      .resize({ width: LARGE_MAX, height: LARGE_MAX, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82, effort: 2 })
      .toBuffer({ resolveWithObject: true });
    const card = await base
      .clone()
      .resize({ width: CARD_SIZE.width, height: CARD_SIZE.height, fit: 'cover' })
      .webp({ quality: 78, effort: 2 })
      .toBuffer();
    return { card, large: large.data, width: large.info.width, height: large.info.height };
  } catch (err) {
    if (err instanceof Error && /pixel limit/i.test(err.message)) {
      throw AppError.field('image', auctionTexts.imageTooManyPixels(name));
    }
    throw AppError.field('image', auctionTexts.imageNotImage(name));
  }
}

/** Fresh random names for both sizes of one image (two-letter shard folders), the folder made. */
async function newNames(mediaDir: string): Promise<{ card_path: string; large_path: string }> {
  const id = crypto.randomBytes(16).toString('hex');
  const shard = id.slice(0, 2);
  await fs.mkdir(path.join(mediaDir, shard), { recursive: true });
  return { card_path: `${shard}/${id}-card.webp`, large_path: `${shard}/${id}-large.webp` };
}

/** Writes both sizes under MEDIA_DIR with random names (two-letter shard folders). */
export async function storeImage(mediaDir: string, img: ProcessedImage): Promise<StoredImage> {
  const { card_path, large_path } = await newNames(mediaDir);
  await fs.writeFile(path.join(mediaDir, card_path), img.card, { flag: 'wx' });
  await fs.writeFile(path.join(mediaDir, large_path), img.large, { flag: 'wx' });
  return { card_path, large_path, width: img.width, height: img.height };
}

/** A copy of a stored image under new names (issue 26: each auction owns its files, a relist gets copies). */
export async function copyStored(mediaDir: string, img: StoredImage): Promise<StoredImage> {
  const { card_path, large_path } = await newNames(mediaDir);
  await fs.copyFile(path.join(mediaDir, img.card_path), path.join(mediaDir, card_path), fs.constants.COPYFILE_EXCL);
  await fs.copyFile(path.join(mediaDir, img.large_path), path.join(mediaDir, large_path), fs.constants.COPYFILE_EXCL);
  return { card_path, large_path, width: img.width, height: img.height };
}

/** Removes stored files; a file that is already gone is fine. Only names we made are accepted. */
export async function removeFiles(mediaDir: string, relPaths: string[]): Promise<void> {
  await Promise.all(
    relPaths
      .filter((p) => /^[0-9a-f]{2}\/[0-9a-f]{32}-(card|large)\.webp$/.test(p))
      .map((p) => fs.rm(path.join(mediaDir, p), { force: true })),
  );
}
