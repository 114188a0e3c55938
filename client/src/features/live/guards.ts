/**
 * Hand-written validators for inbound socket events. The shared zod schemas (@shared/schemas/*) describe
 * the same payloads, but importing them would put zod (~25 kB gzip) into the main bundle that every first
 * visit downloads (docs/performance.md, B5). These checks behave like the zod objects for what the live
 * layer needs: every declared field must be present with the right type (numbers finite, as z.number()),
 * unknown fields are dropped, and anything else is refused. tests/client/live/guards.test.ts compares them
 * with the zod schemas, and the `Check<SharedType>` annotations below make `tsc` fail when a shared event
 * type gains a field the guard does not check.
 */
import type {
  AuctionClosedEvent,
  AuctionDeletedEvent,
  AuctionEventName,
  AuctionEventPayload,
  BidPlacedEvent,
  CommentCreatedEvent,
  CommentDeletedEvent,
  NotificationEvent,
  NotificationsCountEvent,
  SessionEndedEvent,
} from '@shared/socket-events';

const BAD: unique symbol = Symbol('bad');
/** Returns the (cleaned) value, or BAD when it does not match. */
export type Check<T> = (v: unknown) => T | typeof BAD;
type Out<C> = C extends Check<infer T> ? T : never;

const num: Check<number> = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : BAD);
const str: Check<string> = (v) => (typeof v === 'string' ? v : BAD);
const bool: Check<boolean> = (v) => (typeof v === 'boolean' ? v : BAD);
const nullable =
  <T>(c: Check<T>): Check<T | null> =>
  (v) =>
    v === null ? null : c(v);
const literal =
  <L extends string>(l: L): Check<L> =>
  (v) =>
    v === l ? l : BAD;

const oneOf =
  <L extends string>(...ls: readonly L[]): Check<L> =>
  (v) =>
    (ls as readonly unknown[]).includes(v) ? (v as L) : BAD;

function object<S extends Record<string, Check<unknown>>>(shape: S): Check<{ [K in keyof S]: Out<S[K]> }> {
  const keys = Object.keys(shape) as (keyof S & string)[];
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return BAD;
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const r = shape[k]((v as Record<string, unknown>)[k]);
      if (r === BAD) return BAD;
      out[k] = r;
    }
    return out as { [K in keyof S]: Out<S[K]> };
  };
}

/** The payload if it matches, else null. */
export function check<T>(c: Check<T>, raw: unknown): T | null {
  const r = c(raw);
  return r === BAD ? null : r;
}

const bid = object({ id: num, bidder: num, bidder_name: str, amount: num, created_at: str, auto: bool });
const comment = object({ id: num, userId: num, user: str, content: str, created_at: str, is_seller: bool });
const notification = object({ id: num, message: str, is_read: bool, created_at: str, auction_id: nullable(num) });

export const bidPlaced: Check<BidPlacedEvent> = object({
  auction_id: num,
  seq: num,
  bid,
  current_price: num,
  bid_count: num,
  end_date: str,
});
export const auctionClosed: Check<AuctionClosedEvent> = object({
  auction_id: num,
  seq: num,
  status: literal('ended'),
  winner_id: nullable(num),
  final_price: num,
  end_date: str,
});
export const auctionDeleted: Check<AuctionDeletedEvent> = object({ auction_id: num, seq: num });
export const commentCreated: Check<CommentCreatedEvent> = object({ auction_id: num, seq: num, comment });
export const commentDeleted: Check<CommentDeletedEvent> = object({ auction_id: num, seq: num, comment_id: num });
export const notificationEvent: Check<NotificationEvent> = object({ notification, unread_notifications_count: num });
export const notificationsCount: Check<NotificationsCountEvent> = object({ unread_notifications_count: num });

/** `session:ended` (sent to one socket just before the server demotes it to anonymous). */
export const sessionEnded: Check<SessionEndedEvent> = object({ reason: oneOf('ended', 'blocked') });

/** One guard per auction-room event. */
export const ROOM_GUARDS: { [K in AuctionEventName]: Check<AuctionEventPayload<K>> } = {
  'bid:placed': bidPlaced,
  'comment:created': commentCreated,
  'comment:deleted': commentDeleted,
  'auction:closed': auctionClosed,
  'auction:deleted': auctionDeleted,
};
