import { z } from 'zod';
import { idField } from './bids';

/** Serbian texts of the watchlist (issue 14): the UI's words and the server's answers. */
export const watchlistTexts = {
  title: 'Praćene aukcije',
  watch: 'Prati',
  watching: 'Pratite',
  unwatch: 'Prestani da pratiš',
  watchCount: (n: number) => `Prati: ${n}`,
  empty: 'Ne pratite nijednu aukciju.',
  auctionInvalid: 'Aukcija nije ispravno navedena.',
  failed: 'Praćenje nije uspelo. Pokušajte ponovo.',
} as const;

/** POST /api/watchlist/ */
export const WatchInput = z.object({ auction_item_id: idField(watchlistTexts.auctionInvalid) });
export type WatchInput = z.infer<typeof WatchInput>;

/** POST /api/watchlist/: 201 when the watch started, 200 (same body) when it already existed. */
export const WatchResponse = z.object({
  auction_item_id: z.number(),
  watched: z.literal(true),
  watch_count: z.number(),
});
export type WatchResponse = z.infer<typeof WatchResponse>;
