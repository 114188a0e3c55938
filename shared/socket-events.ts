/**
 * The typed socket contract (prose in docs/socket-contract.md). Both sides import these, so
 * `tsc` fails on server and client alike when they drift. Event names are `resource:past-tense`.
 *
 * Payload shapes of server events come from the feature schemas (the same zod objects the REST answers
 * use), so an event and the REST read of the same thing cannot disagree.
 */
import { z } from 'zod';
import type { AuctionDetail } from './schemas/auctions';
import { AuctionClosedEvent, BidPlacedEvent } from './schemas/bids';
import { AuctionUpdatedEvent } from './schemas/auction-edits';
import { CommentCreatedEvent, CommentDeletedEvent } from './schemas/comments';
import { NotificationEvent, NotificationsCountEvent } from './schemas/notifications';
import { MAX_AUCTION_ROOMS_PER_SOCKET } from './socket-helpers';

// ---------------------------------------------------------------- rooms, limits, pure helpers

// Defined in ./socket-helpers (no zod, so the browser bundle can import them) and re-exported here.
export { auctionIdOfRoom, auctionRoom, clockOffset, MAX_AUCTION_ROOMS_PER_SOCKET, seqVerdict, userRoom } from './socket-helpers';

// ---------------------------------------------------------------- server → client payloads

export type { AuctionClosedEvent, AuctionUpdatedEvent, BidPlacedEvent, CommentCreatedEvent, CommentDeletedEvent, NotificationEvent, NotificationsCountEvent };

/** Every event of room `auction:{id}` carries these two fields. */
export interface AuctionRoomEventBase {
  auction_id: number;
  /** auctions.seq after the change: rises by exactly one per change of that auction. */
  seq: number;
}

/** `auction:deleted`: the auction is gone; a watcher leaves its page / drops its card. */
export const AuctionDeletedEvent = z.object({ auction_id: z.number(), seq: z.number() });
export type AuctionDeletedEvent = z.infer<typeof AuctionDeletedEvent>;

/**
 * `auction:updated` as the browser checks it (issue 26): the ids and seq exactly, `changes` as an object only.
 * The full check of its eleven optional fields is 0.9 KiB of gzip in every first load, where the detail page
 * has no room (tests/bench/first-load.test.ts); the client copies only the fields it knows from it
 * (features/live/patches.ts, updatedFields), and the server builds it from AuctionChanges.
 */
const AuctionUpdatedPayload = z.object({ auction_id: z.number(), seq: z.number(), changes: z.looseObject({}) }) as unknown as typeof AuctionUpdatedEvent;

/** Events sent to room `auction:{id}` (anyone watching that auction). */
export interface AuctionRoomEvents {
  'bid:placed': (p: BidPlacedEvent) => void;
  'comment:created': (p: CommentCreatedEvent) => void;
  'comment:deleted': (p: CommentDeletedEvent) => void;
  'auction:closed': (p: AuctionClosedEvent) => void;
  'auction:deleted': (p: AuctionDeletedEvent) => void;
  /** The seller changed the auction before its first bid, or its images (issue 26): `changes` has the new values. */
  'auction:updated': (p: AuctionUpdatedEvent) => void;
}

/** Events sent to room `user:{id}` (only that user's logged-in sockets). */
export interface UserRoomEvents {
  'notification:created': (p: NotificationEvent) => void;
  /** A burst of bids folded into an existing unread notification: same id, new text. */
  'notification:updated': (p: NotificationEvent) => void;
  /** After marking read (from any tab): the new unread count. */
  'notifications:count': (p: NotificationsCountEvent) => void;
}

/** Why a socket's login ended: `blocked` when the user is blocked (or gone), `ended` for any other reason. */
export const SESSION_END_REASONS = ['ended', 'blocked'] as const;
export const SessionEndedEvent = z.object({ reason: z.enum(SESSION_END_REASONS) });
/**
 * `session:ended`: the session this socket was opened with ended (logout, blocking, password change,
 * expiry); the socket is now an anonymous watcher. The browser may hold a newer session (password changed
 * or logged in again in this browser): re-read GET /api/user/status/ before logging the user out.
 */
export type SessionEndedEvent = z.infer<typeof SessionEndedEvent>;

/** Events sent to one socket (not a room). */
export interface SocketOwnEvents {
  /** Sent to each logged-in socket just before it is demoted to anonymous (it leaves `user:{id}`). */
  'session:ended': (p: SessionEndedEvent) => void;
}

export type ServerToClientEvents = AuctionRoomEvents & UserRoomEvents & SocketOwnEvents;

/**
 * The payload schema of every server → client event. The browser checks each inbound payload with code that
 * zod's compiler generates from these (client/src/features/live/payload-checks.js, written by
 * scripts/gen-payload-checks.ts), so classic zod stays out of its first load.
 */
export const SERVER_EVENT_PAYLOADS = {
  'bid:placed': BidPlacedEvent,
  'comment:created': CommentCreatedEvent,
  'comment:deleted': CommentDeletedEvent,
  'auction:closed': AuctionClosedEvent,
  'auction:deleted': AuctionDeletedEvent,
  'auction:updated': AuctionUpdatedPayload,
  'notification:created': NotificationEvent,
  'notification:updated': NotificationEvent,
  'notifications:count': NotificationsCountEvent,
  'session:ended': SessionEndedEvent,
} as const satisfies { [E in keyof ServerToClientEvents]: z.ZodType<Parameters<ServerToClientEvents[E]>[0]> };

export type AuctionEventName = keyof AuctionRoomEvents;
export type UserEventName = keyof UserRoomEvents;
export type AuctionEventPayload<E extends AuctionEventName> = Parameters<AuctionRoomEvents[E]>[0];
export type UserEventPayload<E extends UserEventName> = Parameters<UserRoomEvents[E]>[0];

// ---------------------------------------------------------------- client → server (all acknowledged)

const auctionId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const AuctionJoinInput = z.object({ auction_id: auctionId });
export type AuctionJoinInput = z.infer<typeof AuctionJoinInput>;
export const AuctionLeaveInput = AuctionJoinInput;
export type AuctionLeaveInput = AuctionJoinInput;
/** Cards of a list: watch many rooms in one event, without snapshots (the list query is the snapshot). */
export const AuctionsWatchInput = z.object({
  auction_ids: z.array(auctionId).min(1).max(MAX_AUCTION_ROOMS_PER_SOCKET),
});
export type AuctionsWatchInput = z.infer<typeof AuctionsWatchInput>;
export const AuctionsUnwatchInput = AuctionsWatchInput;
export type AuctionsUnwatchInput = AuctionsWatchInput;
export const TimeSyncInput = z.object({ client_time: z.number().finite() });
export type TimeSyncInput = z.infer<typeof TimeSyncInput>;

/** Any refused request: bad payload, unknown auction, too many rooms, too many events per second. */
export interface AckError {
  ok: false;
  detail: string;
}
export interface AckOk {
  ok: true;
}

export interface AuctionJoinOk {
  ok: true;
  /** Server clock (ms since epoch) when the snapshot was read. */
  server_time: number;
  /** auctions.seq of the snapshot: apply only events with a larger seq. */
  seq: number;
  /** The same object GET /api/auction/{id}/ answers. */
  auction: AuctionDetail;
}
export type AuctionJoinAck = AuctionJoinOk | AckError;

export interface AuctionsWatchOk {
  ok: true;
  server_time: number;
  /** The current seq of each watched auction that exists. */
  auctions: { auction_id: number; seq: number }[];
  /** Ids that do not exist (not joined). */
  missing: number[];
}
export type AuctionsWatchAck = AuctionsWatchOk | AckError;

export interface TimeSyncOk {
  client_time: number;
  server_time: number;
}
/** A refused time:sync has no client_time: check `'ok' in r` (or `'server_time' in r`). */
export type TimeSyncAck = TimeSyncOk | AckError;

export type LeaveAck = AckOk | AckError;

export interface ClientToServerEvents {
  'auction:join': (p: AuctionJoinInput, ack: (r: AuctionJoinAck) => void) => void;
  'auction:leave': (p: AuctionLeaveInput, ack: (r: LeaveAck) => void) => void;
  'auctions:watch': (p: AuctionsWatchInput, ack: (r: AuctionsWatchAck) => void) => void;
  'auctions:unwatch': (p: AuctionsUnwatchInput, ack: (r: LeaveAck) => void) => void;
  'time:sync': (p: TimeSyncInput, ack: (r: TimeSyncAck) => void) => void;
}

/** Between the nodes of one marketplace (socket.io's Redis adapter): each node re-checks its own sockets. */
export interface InterServerEvents {
  /** A user's session ended or the user was blocked on some node: re-check that user's sockets here. */
  'user:recheck': (userId: number) => void;
}

export interface SocketData {
  /** The logged-in user (checked in the DB at connect); null for anonymous or after logout/blocking. */
  userId: number | null;
  /** express-session id of the handshake, used to re-check that the session still exists. */
  sessionId: string | null;
}
