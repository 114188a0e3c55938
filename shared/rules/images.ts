import { IMAGE_MAX_BYTES, IMAGES_MAX } from './limits';
import { sr } from '../texts/sr';

/** Client-side image pick check (the server checks again): count and size. */
export function checkImagePick(existing: number, picked: { name: string; size: number }[]): string | null {
  if (existing + picked.length > IMAGES_MAX) return sr.create.imagesPickMax;
  const big = picked.find((f) => f.size > IMAGE_MAX_BYTES);
  return big ? sr.create.imageTooLarge(big.name) : null;
}
