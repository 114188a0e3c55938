import type http from 'node:http';
import type SQLite from 'better-sqlite3';
import type { RequestHandler } from 'express';
import { Server, type Socket } from 'socket.io';
import type { Logger } from 'pino';
import type { z } from 'zod';
import {
  AuctionJoinInput,
  AuctionLeaveInput,
  AuctionsUnwatchInput,
  AuctionsWatchInput,
  MAX_AUCTION_ROOMS_PER_SOCKET,
  TimeSyncInput,
  auctionIdOfRoom,
  auctionRoom,
  userRoom,
  type AckError,
  type AuctionEventName,
  type AuctionEventPayload,
  type ClientToServerEvents,
  type InterServerEvents,
  type ServerToClientEvents,
  type SessionEndedEvent,
  type SocketData,
  type UserEventName,
  type UserEventPayload,
} from '@shared/socket-events';
import type { Db } from '../db/types';
import { DEFAULT_FLOOD, TokenBucket, type FloodOptions } from './flood';
import { createSessionCheck } from './session-check';
import { loadAuctionSnapshot, loadSeqs } from './snapshot';
import { rtTexts } from './texts';

type Io = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type IoSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** The only place that emits. Services return what happened; callers emit after commit. */
export interface Realtime {
  io: Io;
  /** Emits to room `auction:{id}`; the payload carries that auction_id and the seq its transaction set. */
  toAuction<E extends AuctionEventName>(auctionId: number, event: E, payload: AuctionEventPayload<E>): void;
  /** Emits to room `user:{id}` (only that user's logged-in sockets). */
  toUser<E extends UserEventName>(userId: number, event: E, payload: UserEventPayload<E>): void;
  /**
   * At logout, blocking or a password change (call it after the session/user change is written): that
   * user's sockets whose session is no longer valid are told `session:ended`, leave `user:{id}` at once
   * and become anonymous watchers (their auction rooms stay). Sockets of the user's other, still valid sessions keep it.
   * Checked again a moment later, for callers that write after calling.
   */
  dropUser(userId: number): void;
  /** Re-checks every logged-in socket's session (also runs periodically). Returns how many were demoted. */
  recheckSessions(): number;
  close(): Promise<void>;
}

export interface RealtimeOptions {
  httpServer: http.Server;
  sessionMiddleware: RequestHandler;
  allowedOrigins: string[];
  logger: Logger;
  db: Db;
  /** The raw connection the session store uses: session checks run synchronously on it. */
  sqlite: SQLite.Database;
  /** Per-socket token bucket; false switches flood control off (RATE_LIMIT=0). */
  flood?: Partial<FloodOptions> | false;
  /** How often every logged-in socket's session is re-checked (default 30 s). */
  sessionCheckMs?: number;
}

type Ack = (r: unknown) => void;
type SessionRequest = http.IncomingMessage & { sessionID?: string; session?: { passport?: { user?: unknown } } };

export function createRealtime(opts: RealtimeOptions): Realtime {
  const { logger } = opts;
  const allowed = new Set(opts.allowedOrigins.map((o) => o.replace(/\/$/, '')));
  const flood = opts.flood === false ? null : { ...DEFAULT_FLOOD, ...opts.flood };
  const check = createSessionCheck(opts.sqlite);

  const io: Io = new Server(opts.httpServer, {
    serveClient: false,
    // Small frames only: our inbound payloads are a few ids.
    maxHttpBufferSize: 16 * 1024,
    allowRequest: (req, cb) => {
      // Browsers always send Origin on cross-origin WebSocket/XHR; a missing one is a non-browser client
      // (which cannot ride a victim's cookie anyway).
      const origin = req.headers.origin;
      cb(null, !origin || allowed.has(origin.replace(/\/$/, '')));
    },
  });
  io.engine.use(opts.sessionMiddleware);

  io.use((socket, next) => {
    const req = socket.request as SessionRequest;
    const uid = req.session?.passport?.user;
    socket.data.sessionId = req.sessionID ?? null;
    socket.data.userId = null;
    try {
      if (typeof uid === 'number' && Number.isSafeInteger(uid) && check.userActive(uid)) socket.data.userId = uid;
    } catch (err) {
      // Watching auctions needs no login: connect anonymously rather than not at all.
      logger.error({ err }, 'socket user check failed');
    }
    next();
  });

  io.on('connection', (socket) => {
    if (socket.data.userId) void socket.join(userRoom(socket.data.userId));
    if (flood) guardFlood(socket, flood);
    registerHandlers(socket);
  });

  function guardFlood(socket: IoSocket, options: FloodOptions) {
    const bucket = new TokenBucket(options);
    socket.use((packet, next) => {
      const verdict = bucket.take();
      if (verdict === 'ok') return next();
      const ack = packet[packet.length - 1];
      if (typeof ack === 'function') (ack as Ack)({ ok: false, detail: rtTexts.flood } satisfies AckError);
      if (verdict === 'disconnect') {
        logger.warn({ socket: socket.id, userId: socket.data.userId }, 'socket disconnected for flooding');
        socket.disconnect(true);
      }
    });
  }

  /** Registers a handler whose input is parsed with zod; errors and bad input become `{ok:false}` acks. */
  function on<S extends z.ZodType>(
    socket: IoSocket,
    event: keyof ClientToServerEvents,
    schema: S,
    handle: (input: z.output<S>) => unknown,
  ) {
    (socket as unknown as { on(e: string, l: (...args: unknown[]) => void): void }).on(event, (...args: unknown[]) => {
      const last = args[args.length - 1];
      const ack: Ack = typeof last === 'function' ? (last as Ack) : () => {};
      const parsed = schema.safeParse(args[0]);
      if (!parsed.success) return ack({ ok: false, detail: rtTexts.invalid } satisfies AckError);
      void (async () => {
        let answer: unknown;
        try {
          answer = await handle(parsed.data);
        } catch (err) {
          logger.error({ err, event }, 'socket handler failed');
          answer = { ok: false, detail: rtTexts.internal } satisfies AckError;
        }
        if (socket.connected) ack(answer);
      })();
    });
  }

  const auctionRoomsOf = (socket: IoSocket) => [...socket.rooms].filter((r) => auctionIdOfRoom(r) !== null).length;

  function registerHandlers(socket: IoSocket) {
    on(socket, 'time:sync', TimeSyncInput, (p) => ({ client_time: p.client_time, server_time: Date.now() }));

    on(socket, 'auction:join', AuctionJoinInput, async ({ auction_id }) => {
      if (!socket.connected) return { ok: false, detail: rtTexts.internal };
      const room = auctionRoom(auction_id);
      const already = socket.rooms.has(room);
      if (!already && auctionRoomsOf(socket) >= MAX_AUCTION_ROOMS_PER_SOCKET) return { ok: false, detail: rtTexts.tooManyRooms };
      // Join before reading: an event committed after the read carries a larger seq and is delivered to
      // this socket; one committed before is already inside the snapshot (seq ≤ snapshot seq).
      await socket.join(room);
      const snap = await loadAuctionSnapshot(opts.db, auction_id);
      if (!snap) {
        if (!already) await socket.leave(room);
        return { ok: false, detail: rtTexts.notFound };
      }
      return { ok: true, server_time: Date.now(), seq: snap.seq, auction: snap.auction };
    });

    on(socket, 'auction:leave', AuctionLeaveInput, async ({ auction_id }) => {
      await socket.leave(auctionRoom(auction_id));
      return { ok: true };
    });

    on(socket, 'auctions:watch', AuctionsWatchInput, async ({ auction_ids }) => {
      if (!socket.connected) return { ok: false, detail: rtTexts.internal };
      const ids = [...new Set(auction_ids)];
      const fresh = ids.filter((id) => !socket.rooms.has(auctionRoom(id)));
      if (auctionRoomsOf(socket) + fresh.length > MAX_AUCTION_ROOMS_PER_SOCKET) return { ok: false, detail: rtTexts.tooManyRooms };
      await socket.join(fresh.map(auctionRoom));
      const seqs = await loadSeqs(opts.db, ids);
      const missing = ids.filter((id) => !seqs.has(id));
      for (const id of missing) if (fresh.includes(id)) await socket.leave(auctionRoom(id));
      return {
        ok: true,
        server_time: Date.now(),
        auctions: ids.filter((id) => seqs.has(id)).map((id) => ({ auction_id: id, seq: seqs.get(id)! })),
        missing,
      };
    });

    on(socket, 'auctions:unwatch', AuctionsUnwatchInput, async ({ auction_ids }) => {
      for (const id of new Set(auction_ids)) await socket.leave(auctionRoom(id));
      return { ok: true };
    });
  }

  /**
   * Turns a socket into an anonymous watcher: out of its user room, auction rooms kept. It is told first
   * (`session:ended`), so the page can forget the user and send them to /login instead of going on as
   * if logged in.
   */
  function demote(socket: IoSocket) {
    const uid = socket.data.userId;
    if (!uid) return;
    let reason: SessionEndedEvent['reason'] = 'ended';
    try {
      if (!check.userActive(uid)) reason = 'blocked';
    } catch (err) {
      logger.error({ err }, 'socket user check failed');
    }
    socket.emit('session:ended', { reason });
    socket.data.userId = null;
    void socket.leave(userRoom(uid));
  }

  function recheckUser(userId: number): number {
    let demoted = 0;
    const ids = io.of('/').adapter.rooms.get(userRoom(userId));
    for (const id of [...(ids ?? [])]) {
      const socket = io.of('/').sockets.get(id);
      if (!socket) continue;
      if (socket.data.userId !== userId || !check.sessionValid(socket.data.sessionId, userId)) {
        demote(socket);
        demoted += 1;
      }
    }
    return demoted;
  }

  function recheckSessions(): number {
    let demoted = 0;
    for (const socket of io.of('/').sockets.values()) {
      const uid = socket.data.userId;
      if (uid && !check.sessionValid(socket.data.sessionId, uid)) {
        demote(socket);
        demoted += 1;
      }
    }
    return demoted;
  }

  const sweep = setInterval(() => {
    try {
      const n = recheckSessions();
      if (n) logger.info({ demoted: n }, 'sockets of ended sessions left their user rooms');
    } catch (err) {
      logger.error({ err }, 'socket session sweep failed');
    }
  }, opts.sessionCheckMs ?? 30_000);
  sweep.unref();
  const pending = new Set<NodeJS.Timeout>();

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
      recheckUser(userId);
      const t = setTimeout(() => {
        pending.delete(t);
        try {
          recheckUser(userId);
        } catch (err) {
          logger.error({ err }, 'socket re-check failed');
        }
      }, 1000);
      t.unref();
      pending.add(t);
    },
    recheckSessions,
    async close() {
      clearInterval(sweep);
      for (const t of pending) clearTimeout(t);
      pending.clear();
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
