import type http from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { ServerOptions } from 'socket.io';
import { auctionRoom, userRoom } from '@shared/socket-events';
import type { LiveSockets } from '../context';
import type { EventSink } from '../events';
import { andThen } from '../lib/maybe-async';
import { NO_METRICS, type Metrics } from '../lib/metrics';
import { sessionRechecks } from './demote';
import { DEFAULT_FLOOD, guardFlood, type FloodOptions } from './flood';
import { createIoServer } from './handshake';
import { publish } from './publish';
import { registerRoomHandlers, roomHandlers, type LiveReads } from './rooms';
import type { SessionCheck } from './session-check';
import { startSessionTimers } from './timers';

export type { AuctionSnapshot, LiveReads } from './rooms';
export type { SessionCheck } from './session-check';

/**
 * The socket server (the app's LiveSockets port, context.ts). It imports no feature: what it reads (auction
 * snapshots, seqs, the session check) is handed to it as functions, and what it emits comes from the app's
 * event sink, to which it subscribes (publish.ts), once each transaction that produced the events has committed.
 */
export type Realtime = LiveSockets;

export interface RealtimeOptions {
  httpServer: http.Server;
  sessionMiddleware: RequestHandler;
  allowedOrigins: string[];
  logger: Logger;
  /** The app's committed events: the realtime layer subscribes and turns them into socket events. */
  events: EventSink;
  /** Snapshots and seqs for auction:join and auctions:watch. */
  reads: LiveReads;
  /** Whether a socket's login is still valid (synchronously on SQLite). */
  sessionCheck: SessionCheck;
  /** Per-socket token bucket; false switches flood control off (RATE_LIMIT=0). */
  flood?: Partial<FloodOptions> | false;
  /** How often every logged-in socket's session is re-checked (default 30 s). */
  sessionCheckMs?: number;
  /**
   * socket.io's Redis adapter (REDIS_URL): room events reach the sockets of every node, and a `session:ended`
   * asks the other nodes to re-check their sockets of that user. Connection-state recovery stays off: a
   * recovered socket would skip the session check of the handshake, and the client resyncs from snapshots anyway.
   */
  adapter?: ServerOptions['adapter'];
  /** Sockets connected, room joins and events fanned out (GET /metrics); none by default. */
  metrics?: Metrics;
}

export function createRealtime(opts: RealtimeOptions): Realtime {
  const { logger } = opts;
  const flood = opts.flood === false ? null : { ...DEFAULT_FLOOD, ...opts.flood };
  const check = opts.sessionCheck;
  const metrics = opts.metrics ?? NO_METRICS;
  const io = createIoServer({ ...opts, check });
  metrics.sockets(() => io.of('/').sockets.size);
  const handlers = roomHandlers(opts.reads, logger, metrics);
  io.on('connection', (socket) => {
    if (socket.data.userId) void socket.join(userRoom(socket.data.userId));
    if (flood) guardFlood(socket, flood, logger);
    registerRoomHandlers(socket, handlers);
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
    metrics.fannedOut(event);
    (io.to(room) as unknown as { emit(e: string, p: unknown): void }).emit(event, payload);
  };

  const realtime: Realtime = {
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
  const out = { realtime, logger };
  opts.events.subscribe((events) => publish(out, events));
  return realtime;
}
