/**
 * The running app as its shell (server/index.ts) and the tests hold it: listen(), an immediate close() and the
 * graceful shutdown() of a signal (lifecycle.ts).
 */
import type http from 'node:http';
import type express from 'express';
import type { AppContext } from './context';
import type { DbHandle } from './db/connection';
import { withTimeout } from './lib/time';
import { shutdownGracefully, type NodeLifecycle } from './lifecycle';

export interface App {
  app: express.Express;
  httpServer: http.Server;
  ctx: AppContext;
  db: DbHandle;
  /** Listens on config.host:config.port (0 = any free port) and resolves with the bound port. */
  listen(port?: number, host?: string): Promise<number>;
  /** Closes at once: jobs, sockets, HTTP, Redis, the database (tests). */
  close(): Promise<void>;
  /**
   * The graceful shutdown of SIGTERM/SIGINT (lifecycle.ts): health 503 for SHUTDOWN_DRAIN_SECONDS while still
   * serving, then no new connections, requests in flight finish (at most SHUTDOWN_TIMEOUT_SECONDS), transports
   * closed (clients reconnect elsewhere), closer stopped between auctions, Redis and the database closed.
   */
  shutdown(): Promise<void>;
}

/**
 * The running app's handle: listen(), a close() that stops jobs, sockets, HTTP and the database in order at once,
 * and the graceful shutdown() of a signal.
 */
export function appHandle(parts: Pick<App, 'app' | 'httpServer' | 'ctx' | 'db'>, stopJobs: () => Promise<void>, lifecycle: NodeLifecycle): App {
  const { httpServer, ctx, db } = parts;
  let closing: Promise<void> | undefined;
  const closeEngines = async (redisWaitMs: number) => {
    await ctx.redis?.close(redisWaitMs);
    await db.close();
  };
  return {
    ...parts,
    listen(port = ctx.config.port, host = ctx.config.host) {
      return new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          const addr = httpServer.address();
          resolve(typeof addr === 'object' && addr ? addr.port : port);
        });
      });
    },
    close() {
      closing ??= (async () => {
        await stopJobs();
        ctx.sessions.stopPruning();
        await ctx.realtime.close();
        if (httpServer.listening) await new Promise<void>((r) => httpServer.close(() => r()));
        await closeEngines(0);
      })();
      return closing;
    },
    shutdown() {
      closing ??= shutdownGracefully({
        httpServer,
        lifecycle,
        logger: ctx.logger,
        drainMs: ctx.config.shutdownDrainSeconds * 1000,
        timeoutMs: ctx.config.shutdownTimeoutSeconds * 1000,
        dropTransports: () => ctx.realtime.io.engine.close(),
        stopJobs: async () => {
          await stopJobs();
          ctx.sessions.stopPruning();
        },
        closeRest: async () => {
          // io.close() waits for the HTTP server's last connection: those left are cut, not waited for.
          await withTimeout(ctx.realtime.close(), 2000, 'socket server close').catch(() => httpServer.closeAllConnections());
          // Redis gets a moment for the last events' publishes (other nodes' watchers), then is cut.
          await closeEngines(1000);
        },
      });
      return closing;
    },
  };
}
