/** Who may connect and as whom: the Origin check, the session cookie, and the user's state at connect. */
import type http from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { Server, type ServerOptions } from 'socket.io';
import type { Io } from './io';
import type { SessionCheck } from './session-check';
import { reuseEncodedValues } from './encoder';
import { joinBroadcastFrames } from './frames';
import { settle } from '../lib/maybe-async';

interface HandshakeOptions {
  httpServer: http.Server;
  sessionMiddleware: RequestHandler;
  allowedOrigins: string[];
  logger: Logger;
  check: SessionCheck;
  /** socket.io's Redis adapter on several nodes; the in-memory one by default. */
  adapter?: ServerOptions['adapter'];
}

type SessionRequest = http.IncomingMessage & { sessionID?: string; session?: { passport?: { user?: unknown } } };

/**
 * The socket.io server on `httpServer`. A socket whose session belongs to an active user is that user's;
 * any other socket (no login, a blocked user, a failed check) connects anonymously: watching needs no login.
 */
export function createIoServer(opts: HandshakeOptions): Io {
  const allowed = new Set(opts.allowedOrigins.map((o) => o.replace(/\/$/, '')));
  const io: Io = new Server(opts.httpServer, {
    serveClient: false,
    ...(opts.adapter ? { adapter: opts.adapter } : {}),
    // Small frames only: our inbound payloads are a few ids.
    maxHttpBufferSize: 16 * 1024,
    allowRequest: (req, cb) => {
      // Browsers always send Origin on cross-origin WebSocket/XHR; a missing one is a non-browser client
      // (which cannot ride a victim's cookie anyway).
      const origin = req.headers.origin;
      cb(null, !origin || allowed.has(origin.replace(/\/$/, '')));
    },
  });
  reuseEncodedValues(io);
  joinBroadcastFrames(io);
  io.engine.use(opts.sessionMiddleware);
  io.use((socket, next) => {
    const req = socket.request as SessionRequest;
    const uid = req.session?.passport?.user;
    socket.data.sessionId = req.sessionID ?? null;
    socket.data.userId = null;
    if (typeof uid !== 'number' || !Number.isSafeInteger(uid)) return next();
    settle(
      () => opts.check.userActive(uid),
      (err, active) => {
        if (err) opts.logger.error({ err }, 'socket user check failed');
        else if (active) socket.data.userId = uid;
        next();
      },
    );
  });
  return io;
}
