import type http from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { ServerOptions } from 'socket.io';
import { auctionRoom, userRoom, type AuctionEventName, type AuctionEventPayload, type UserEventName, type UserEventPayload } from '@shared/socket-events';
import type { Db } from '../db/types';
import type { SessionsRepository } from '../features/accounts/sessions.repository';
import { andThen, type MaybeAsync } from '../lib/maybe-async';
import { sessionRechecks } from './demote';
import { DEFAULT_FLOOD, guardFlood, type FloodOptions } from './flood';
import { createIoServer } from './handshake';
import type { Io } from './io';
import { registerRoomHandlers } from './rooms';
import { createSessionCheck } from './session-check';
import { startSessionTimers } from './timers';

/**
 * The socket server. Domain events reach it only through publish() (publish.ts), which calls toAuction() and
 * toUser() via broadcast.ts once the transaction that produced them has committed.
 */
export interface Realtime {
  io: Io;
  /** Emits to room `auction:{id}`; the payload carries that auction_id and the seq its transaction set. */
  toAuction<E extends AuctionEventName>(auctionId: number, event: E, payload: AuctionEventPayload<E>): void;
  /** Emits to room `user:{id}` (only that user's logged-in sockets). */
  toUser<E extends UserEventName>(userId: number, event: E, payload: UserEventPayload<E>): void;
  /**
   * At logout, blocking or a password change (call it after the session/user change is written): that
   * user's sockets (on every node) whose session is no longer valid are told `session:ended`, leave `user:{id}` at once
   * and become anonymous watchers (their auction rooms stay). Sockets of the user's other, still valid sessions keep it.
   * Checked again a moment later, for callers that write after calling. On PostgreSQL the check is a query:
   * the returned promise settles once the sockets are demoted, so a caller that awaits it answers after.
   */
  dropUser(userId: number): MaybeAsync<void>;
  /** Re-checks every logged-in socket's session (also runs periodically). Returns how many were demoted. */
  recheckSessions(): MaybeAsync<number>;
  close(): Promise<void>;
}

export interface RealtimeOptions {
  httpServer: http.Server;
  sessionMiddleware: RequestHandler;
  allowedOrigins: string[];
  logger: Logger;
  db: Db;
  /** The session store's repository: session checks run on it (synchronously on SQLite). */
  sessions: SessionsRepository;
  /** Per-socket token bucket; false switches flood control off (RATE_LIMIT=0). */
  flood?: Partial<FloodOptions> | false;
  /** How often every logged-in socket's session is re-checked (default 30 s). */
  sessionCheckMs?: number;
  /**
   * socket.io's Redis adapter (REDIS_URL): room events reach the sockets of every node, and dropUser() asks
   * the other nodes to re-check their sockets of that user. Connection-state recovery stays off: a recovered
   * socket would skip the session check of the handshake, and the client resyncs from snapshots anyway.
   */
  adapter?: ServerOptions['adapter'];
}

export function createRealtime(opts: RealtimeOptions): Realtime {
  const { logger } = opts;
  const flood = opts.flood === false ? null : { ...DEFAULT_FLOOD, ...opts.flood };
  const check = createSessionCheck(opts.sessions);
  const io = createIoServer({ ...opts, check });
  io.on('connection', (socket) => {
    if (socket.data.userId) void socket.join(userRoom(socket.data.userId));
    if (flood) guardFlood(socket, flood, logger);
    registerRoomHandlers(socket, opts.db, logger);
  });
  const rechecks = sessionRechecks(io, check, logger);
  const timers = startSessionTimers(rechecks, logger, opts.sessionCheckMs ?? 30_000);
  const recheckHere = (userId: number) => {
    rechecks.user(userId);
    timers.recheckLater(userId);
  };
  // Demoting needs the socket itself (its data and rooms), which only its own node holds: fetchSockets()
  // hands out copies. So the other nodes are asked to re-check theirs, against the shared database.
  if (opts.adapter) {
    io.on('user:recheck', (userId) => {
      if (Number.isSafeInteger(userId) && userId > 0) recheckHere(userId);
    });
  }

  const emit = (room: string, event: string, payload: unknown) => {
    (io.to(room) as unknown as { emit(e: string, p: unknown): void }).emit(event, payload);
  };

  return {
    io,
    toAuction(auctionId, event, payload) {
      if (payload.auction_id !== auctionId) logger.error({ auctionId, event, payload }, 'auction event for another auction');
      emit(auctionRoom(auctionId), event, payload);
    },
    toUser(userId, event, payload) {
      emit(userRoom(userId), event, payload);
    },
    dropUser(userId) {
      const done = rechecks.user(userId);
      timers.recheckLater(userId);
      if (opts.adapter) io.serverSideEmit('user:recheck', userId);
      return andThen(done, () => undefined);
    },
    recheckSessions: rechecks.all,
    async close() {
      timers.stop();
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
