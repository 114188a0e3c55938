import type http from 'node:http';
import type { RequestHandler } from 'express';
import { Server } from 'socket.io';
import type { Logger } from 'pino';
import { auctionRoom, userRoom, type ClientToServerEvents, type ServerToClientEvents, type SocketData } from '@shared/socket-events';

type Io = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** The only place that emits. Services return what happened; callers emit after commit. */
export interface Realtime {
  io: Io;
  toAuction(auctionId: number, event: string, payload: unknown): void;
  toUser(userId: number, event: string, payload: unknown): void;
  /** At logout or blocking: that user's sockets leave `user:{id}` at once. */
  dropUser(userId: number): void;
  close(): Promise<void>;
}

export function createRealtime(opts: {
  httpServer: http.Server;
  sessionMiddleware: RequestHandler;
  allowedOrigins: string[];
  logger: Logger;
}): Realtime {
  const allowed = new Set(opts.allowedOrigins);
  const io: Io = new Server(opts.httpServer, {
    serveClient: false,
    allowRequest: (req, cb) => {
      const origin = req.headers.origin;
      cb(null, !origin || allowed.has(origin.replace(/\/$/, '')));
    },
  });
  io.engine.use(opts.sessionMiddleware);

  io.on('connection', (socket) => {
    const req = socket.request as http.IncomingMessage & { session?: { passport?: { user?: number } } };
    const userId = req.session?.passport?.user ?? null;
    socket.data.userId = userId;
    if (userId) void socket.join(userRoom(userId));

    socket.on('time:sync', (p, ack) => {
      if (typeof ack !== 'function') return;
      const clientTime = typeof p?.client_time === 'number' && Number.isFinite(p.client_time) ? p.client_time : 0;
      ack({ client_time: clientTime, server_time: Date.now() });
    });
  });

  const emit = (room: string, event: string, payload: unknown) => {
    (io.to(room) as unknown as { emit(e: string, p: unknown): void }).emit(event, payload);
  };

  return {
    io,
    toAuction(auctionId, event, payload) {
      emit(auctionRoom(auctionId), event, payload);
    },
    toUser(userId, event, payload) {
      emit(userRoom(userId), event, payload);
    },
    dropUser(userId) {
      io.in(userRoom(userId)).socketsLeave(userRoom(userId));
    },
    async close() {
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
