import { CreateAuctionInput, type CreateAuctionForm } from '@shared/schemas/auctions';
import { IMAGES_MAX, IMAGES_MIN } from '@shared/rules/limits';
import { sr } from '@shared/texts/sr';

export interface CreateValues {
  title: string;
  description: string;
  current_price: string;
  auction_duration: string;
  city: string;
  phone_number: string;
  category: string;
  /** Optional "Kupi odmah" price and hidden reserve (issue 25); empty = none. */
  buy_now_price: string;
  reserve_price: string;
}

export type CreateField = keyof CreateValues | 'images';
export type CreateErrors = Partial<Record<CreateField, string>>;

export const FIELD_ORDER: CreateField[] = ['title', 'description', 'current_price', 'auction_duration', 'buy_now_price', 'reserve_price', 'city', 'phone_number', 'category', 'images'];

/**
 * The per-field messages of spec §5, from the same zod schema the server uses. Returns the parsed payload
 * (price floored to whole dinars) when everything is valid.
 */
export function validateCreate(values: CreateValues, imageCount: number): { errors: CreateErrors; data?: CreateAuctionForm } {
  const errors: CreateErrors = {};
  const parsed = CreateAuctionInput.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof CreateValues | undefined;
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  if (imageCount < IMAGES_MIN) errors.images = sr.create.imagesRequired;
  else if (imageCount > IMAGES_MAX) errors.images = sr.create.imagesMax;
  if (Object.keys(errors).length > 0 || !parsed.success) return { errors };
  return { errors, data: parsed.data };
}
