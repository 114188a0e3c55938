import type { AuctionEventName, AuctionEventPayload } from '@shared/socket-events';
import { checkPayload } from './payload-checks';

/** An auction-room event with its name, as the seq book queues it. */
export type RoomEvent = {
  [K in AuctionEventName]: { name: K; auction_id: number; seq: number; payload: AuctionEventPayload<K> };
}[AuctionEventName];

/** The names of the auction-room events (docs/socket-contract.md §4): each carries the auction's seq. */
export const ROOM_EVENT_NAMES: readonly AuctionEventName[] = ['bid:placed', 'comment:created', 'comment:deleted', 'auction:closed', 'auction:deleted', 'auction:updated'];

/** The event checked by its shared schema (unknown fields dropped), or null when the payload breaks the contract. */
export function roomEvent(name: AuctionEventName, raw: unknown): RoomEvent | null {
  const p = checkPayload(name, raw);
  if (!p) return null;
  return { name, auction_id: p.auction_id, seq: p.seq, payload: p } as RoomEvent;
}
