/** Saved searches (issue 28): POST /api/saved-searches/, GET (paged), DELETE /api/saved-searches/{id}/. */
import { z } from 'zod';
import { auctionTexts } from '../texts/auctions';
import { ListFilterFields, Paged } from './auctions';

/**
 * A search to save: the list's own criteria with the list's validation (`q`, `category`, `min_price`,
 * `max_price`, `city`); at least one of them must remain after normalisation (the service checks, 400).
 */
export const SavedSearchInput = z.object({
  q: z.string({ error: auctionTexts.badQuery }).trim().max(200, auctionTexts.searchTooLong).optional(),
  category: z.string({ error: auctionTexts.badQuery }).trim().max(50, auctionTexts.badQuery).optional(),
  ...ListFilterFields,
});
export type SavedSearchInput = z.output<typeof SavedSearchInput>;
/** What a client sends (numbers may be numeric strings, as in the list's URL). */
export type SavedSearchForm = z.input<typeof SavedSearchInput>;

export const SavedSearch = z.object({
  id: z.number(),
  q: z.string().nullable(),
  category: z.string().nullable(),
  min_price: z.number().nullable(),
  max_price: z.number().nullable(),
  city: z.string().nullable(),
  created_at: z.string(),
});
export type SavedSearch = z.infer<typeof SavedSearch>;

export const SavedSearchPage = Paged(SavedSearch);
