/**
 * A node's shutdown as operators expect it (SIGTERM/SIGINT, server/index.ts): health answers 503 at once while
 * the node keeps serving for the drain period (a load balancer sees the 503 and moves traffic away); then it
 * stops accepting, lets the requests in flight finish (at most the timeout), closes the sockets' transports
 * (socket.io clients reconnect by themselves and resync, on another node when there is one: a server-side
 * disconnect() would tell them not to), stops the closer between two auctions, and closes Redis and the
 * database. The first middleware (`track`) counts the requests in flight and times them for GET /metrics.
 */
import type http from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { Lifecycle } from './context';
import type { Metrics } from './lib/metrics';

export interface NodeLifecycle extends Lifecycle {
  draining: boolean;
  /** Requests being answered now (socket.io's own requests never reach Express and are not counted). */
  readonly inFlight: number;
  /** The app's first middleware: counts the request, asks for `Connection: close` once draining, times it. */
  track: RequestHandler;
  /** Resolves true once no request is in flight, or false after `ms`. */
  idle(ms: number): Promise<boolean>;
}

const ROUTE_LABEL = 'routeLabel';

/** The route an answer is counted under when a middleware answered it before its route (the list cache). */
export function setRouteLabel(res: Response, label: string): void {
  (res.locals as { [ROUTE_LABEL]?: string })[ROUTE_LABEL] = label;
}

/** A request's route for the metrics: the template it matched (`/api/auction/:id/`), never its path's values. */
export function routeLabel(req: Request): string {
  const early = (req.res?.locals as { [ROUTE_LABEL]?: string } | undefined)?.[ROUTE_LABEL];
  if (early) return early;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  const url = req.originalUrl;
  // Every feature router is mounted without a path of its own below /api (server/features/index.ts).
  if (typeof path === 'string') return url.startsWith('/api/') ? `/api${path}` : path;
  if (url.startsWith('/api/')) return '/api/*';
  if (url.startsWith('/media/')) return '/media/*';
  if (url.startsWith('/assets/')) return '/assets/*';
  if (url === '/metrics' || url.startsWith('/metrics?')) return '/metrics';
  return '/*';
}

export function createLifecycle(metrics: Metrics): NodeLifecycle {
  let inFlight = 0;
  let waiters: (() => void)[] = [];
  const lifecycle: NodeLifecycle = {
    draining: false,
    get inFlight() {
      return inFlight;
    },
    track(req, res, next) {
      inFlight += 1;
      const t0 = metrics.enabled ? performance.now() : 0;
      // While draining, every answer ends its connection: the client's next request opens a new one, which the
      // load balancer sends to a node that is staying.
      if (lifecycle.draining) res.setHeader('Connection', 'close');
      res.once('close', () => {
        inFlight -= 1;
        if (metrics.enabled) metrics.httpRequest(req.method, routeLabel(req), res.statusCode, (performance.now() - t0) / 1000);
        if (inFlight === 0 && waiters.length) {
          const woken = waiters;
          waiters = [];
          for (const w of woken) w();
        }
      });
      next();
    },
    idle(ms) {
      if (inFlight === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== done);
          resolve(false);
        }, ms);
        const done = () => {
          clearTimeout(timer);
          resolve(true);
        };
        waiters.push(done);
      });
    },
  };
  return lifecycle;
}

export interface ShutdownSteps {
  httpServer: http.Server;
  lifecycle: NodeLifecycle;
  logger: Logger;
  drainMs: number;
  timeoutMs: number;
  /** Closes every socket's transport without a socket.io disconnect: the clients reconnect by themselves. */
  dropTransports(): void;
  /** Stops the timers; settles once the closer has finished the auction it was closing, if any. */
  stopJobs(): Promise<void>;
  /** Closes what is left: the socket server, Redis, the database. */
  closeRest(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The shutdown described at the top of this file. Resolves when everything is closed. */
export async function shutdownGracefully(s: ShutdownSteps): Promise<void> {
  const { httpServer, lifecycle, logger } = s;
  lifecycle.draining = true;
  logger.info({ drainSeconds: s.drainMs / 1000, timeoutSeconds: s.timeoutMs / 1000 }, 'shutdown: draining (health answers 503)');
  if (s.drainMs > 0) await sleep(s.drainMs);

  // Stop accepting. close() also ends the idle keep-alive connections; those whose answer finishes later are
  // ended as they become idle (the sweep), so that no client sends a new request into a node that is leaving.
  httpServer.close();
  httpServer.closeIdleConnections();
  const sweep = setInterval(() => httpServer.closeIdleConnections(), 25);
  const finished = await lifecycle.idle(s.timeoutMs);
  clearInterval(sweep);
  if (!finished) logger.warn({ inFlight: lifecycle.inFlight }, 'shutdown: requests still in flight after SHUTDOWN_TIMEOUT_SECONDS; closing their connections');
  else logger.info('shutdown: no request in flight');

  s.dropTransports();
  await s.stopJobs();
  httpServer.closeAllConnections();
  await s.closeRest();
  logger.info('shutdown: done');
}
