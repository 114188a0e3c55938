import { z } from 'zod';
import { idField } from './bids';
import { watchlistTexts } from '../texts/watchlist';

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
