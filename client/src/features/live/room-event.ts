import type { AuctionEventName, AuctionEventPayload } from '@shared/socket-events';
import { check, ROOM_GUARDS } from './guards';

/** An auction-room event with its name, as the seq book queues it. */
export type RoomEvent = {
  [K in AuctionEventName]: { name: K; auction_id: number; seq: number; payload: AuctionEventPayload<K> };
}[AuctionEventName];

/** The names of the auction-room events (docs/socket-contract.md §4): each carries the auction's seq. */
export const ROOM_EVENT_NAMES = Object.keys(ROOM_GUARDS) as AuctionEventName[];

/** The checked event, or null when the payload breaks the contract (it is then ignored). */
export function roomEvent(name: AuctionEventName, raw: unknown): RoomEvent | null {
  const p = check(ROOM_GUARDS[name] as (v: unknown) => unknown, raw) as { auction_id: number; seq: number } | null;
  if (!p) return null;
  return { name, auction_id: p.auction_id, seq: p.seq, payload: p } as RoomEvent;
}
