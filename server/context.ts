import type SQLite from 'better-sqlite3';
import type { Logger } from 'pino';
import type { Server } from 'socket.io';
import type {
  AuctionEventName,
  AuctionEventPayload,
  ClientToServerEvents,
  InterServerEvents,
  ServerToClientEvents,
  SocketData,
  UserEventName,
  UserEventPayload,
} from '@shared/socket-events';
import type { Config } from './config';
import type { Db } from './db/types';
import type { EventSink } from './events';
import type { Mailer } from './lib/mailer';
import type { Metrics } from './lib/metrics';
import type { MaybeAsync } from './lib/maybe-async';
import type { RedisHandle } from './lib/redis';
import type { SqliteSessionStore } from './http/session-store';
import type { Csrf } from './http/csrf';

/**
 * The ports the app offers every feature, built once in createApp(). Declared here, implemented above (the
 * closer in features/auctions, the lanes in features/bids, the sockets in realtime/): this file imports no
 * feature and no realtime module, so every layer can depend on it.
 */
export interface AppContext {
  config: Config;
  db: Db;
  /** SQLite only (tests and tools): throws on PostgreSQL (db/connection.ts, DbHandle). */
  readonly sqlite: SQLite.Database;
  logger: Logger;
  mailer: Mailer;
  sessions: SqliteSessionStore;
  csrf: Csrf;
  /** Where committed events go (unit-of-work.ts); realtime/ subscribes to it. */
  events: EventSink;
  /** The socket server, for the app's shell and tests: features talk to it only through `events`. */
  realtime: LiveSockets;
  /** Redis (REDIS_URL): socket fan-out and rate-limit counters shared by every node; absent on one node. */
  redis?: RedisHandle;
  /** The auction closer's timer (features/auctions/closing.scheduler.ts); started with the background jobs. */
  closer: Closer;
  /** This node's bids on one auction take turns here before the row lock (features/bids/bid-lanes.ts). */
  bidLanes: BidLanes;
  /** GET /metrics's instruments (lib/metrics.ts); no-ops without METRICS_TOKEN. */
  metrics: Metrics;
  /** Where the node is in its life: draining (SIGTERM/SIGINT received) turns health to 503 (lifecycle.ts). */
  lifecycle: Lifecycle;
}

/** The node's shutdown state as the features see it. */
export interface Lifecycle {
  /** A shutdown began: health answers 503 while the node still serves for the drain period. */
  readonly draining: boolean;
}

/** The closer as the rest of the app sees it. */
export interface Closer {
  /** Wakes the closer now (an auction was created, or a bid moved an end): it re-aims its timer. */
  rearm(): void;
}

/** A bid lane (features/bids/bid-lanes.ts). */
export interface Lane {
  /** The highest price of the auction seen during this lane's life, or null before its first turn ended. */
  price: number | null;
  /**
   * A "Kupi odmah" in this lane ended the auction (issue 25): every later turn is refused as ended, as the
   * row lock would refuse it.
   */
  ended?: boolean;
}

export interface BidLanes {
  /** Runs `turn` when the request before it in the auction's lane has finished, or after the lane's longest wait. */
  run<T>(auctionId: number, turn: (lane: Lane) => Promise<T>): Promise<T>;
  /** How many requests are in the auction's lane now, its turn's included (0: no lane). */
  inside(auctionId: number): number;
  /** How many auctions have a lane now (lanes are removed when they empty). */
  readonly size: number;
}

/** The typed socket.io server of the contract in shared/socket-events.ts. */
export type Io = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** The socket server (server/realtime/index.ts createRealtime). */
export interface LiveSockets {
  io: Io;
  /** Emits to room `auction:{id}`; the payload carries that auction_id and the seq its transaction set. */
  toAuction<E extends AuctionEventName>(auctionId: number, event: E, payload: AuctionEventPayload<E>): void;
  /** Emits to room `user:{id}` (only that user's logged-in sockets). */
  toUser<E extends UserEventName>(userId: number, event: E, payload: UserEventPayload<E>): void;
  /**
   * After a user's sessions ended (the `session:ended` event): that user's sockets (on every node) whose session
   * is no longer valid are told `session:ended`, leave `user:{id}` at once and become anonymous watchers (their
   * auction rooms stay); sockets of the user's other, still valid sessions keep it. Checked again a moment
   * later, for callers that write after. On PostgreSQL the check is a query: the returned promise settles once
   * the sockets are demoted, so a caller that awaits it answers after.
   */
  dropUser(userId: number): MaybeAsync<void>;
  /** Re-checks every logged-in socket's session (also runs periodically). Returns how many were demoted. */
  recheckSessions(): MaybeAsync<number>;
  close(): Promise<void>;
}
