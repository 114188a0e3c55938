import http from 'node:http';
import path from 'node:path';
import express, { type RequestHandler } from 'express';
import session from 'express-session';
import cookieParser from 'cookie-parser';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { AppContext } from './context';
import { migrateToLatest, openAppDatabase, type DbHandle } from './db/connection';
import { createBidLanes } from './features/bids/bid-lanes';
import { pgSessionsRepository, sessionsRepository } from './features/accounts/sessions.repository';
import { createSessionCheck } from './features/accounts/session-check';
import { createSessionCache, type SessionCache } from './features/accounts/session-cache';
import { getSeqs, getSnapshot } from './features/auctions/auctions.service';
import { createSnapshotCache, type SnapshotCache } from './features/auctions/snapshot-cache';
import { createEventSink } from './events';
import { createLogger } from './lib/logger';
import { createMailer, type Mailer } from './lib/mailer';
import { loadSessionSecret } from './lib/secret';
import { connectRedis, type RedisHandle } from './lib/redis';
import { cacheVersion } from './lib/version';
import { SESSION_COOKIE, SqliteSessionStore, sessionIfCookie } from './http/session-store';
import { createCsrf } from './http/csrf';
import { installPassportRequest, sessionFastPath, type SessionFastPath } from './http/session-fast-path';
import { apiNotFound, errorHandler } from './http/errors';
import { createRealtime, type LiveReads } from './realtime/index';
import type { Db } from './db/types';
import { configurePassport } from './features/accounts/passport';
import { applyAdminEmails, redactUrl } from './features/accounts/startup';
import { apiRoutes, cachedListAnswers, csrfExemptRoutes, publicListCache, startBackgroundJobs } from './features/index';
import { createClosingScheduler } from './features/auctions/closing.scheduler';
import { seedIfEmpty } from './features/demo/demo.service';
import { serveClient } from './http/spa';
import { metricsRoute } from './http/metrics';
import { createMetrics, NO_METRICS, sqlOperation, type Metrics } from './lib/metrics';
import { createLifecycle } from './lifecycle';
import type { ListCache } from './features/auctions/list-cache';
import { appHandle, type App } from './app-handle';

export type { App } from './app-handle';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** API reads (paths below /api) that create a session for a visitor who has none. */
const STARTS_SESSION = new Set(['/csrf/', '/auth/google/start', '/auth/google/callback']);

export interface AppDeps {
  config: Config;
  logger?: Logger;
  mailer?: Mailer;
  /** Overrides DATA_DIR/aukcije.sqlite, e.g. ':memory:' in unit tests. */
  dbFile?: string;
  /** Seeds demo data when config.seedDemo is on and the database is empty (default true). */
  seed?: boolean;
}

/** Builds the whole server: database (migrated), sessions, CSRF, passport, REST, sockets, client. */
export async function createApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  const logger = deps.logger ?? createLogger(config.logLevel);
  const metrics = config.metricsToken ? await createMetrics() : NO_METRICS;
  const dbHandle = await openMigrated(deps, metrics);
  const redis = await connectCluster(config, logger).catch(async (err: unknown) => {
    await dbHandle.close();
    throw err;
  });

  const app = express();
  const httpServer = http.createServer(app);
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy ? parseTrustProxy(config.trustProxy) : false);
  app.set('etag', false);

  const events = createEventSink();
  const sessionCache = createSessionCache({ events }, cacheVersion(redis, 'sessions:version', logger));
  const { sessionsRepo, sessions, sessionMiddleware, secret } = createSessions(config, dbHandle, sessionCache);
  const allowedOrigins = [new URL(config.publicUrl).origin, ...config.allowedOrigins];
  const csrf = createCsrf({ secure: config.secureCookies, allowedOrigins, secret });
  const mailer =
    deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), logger });
  const realtime = createRealtime({
    ...{ httpServer, sessionMiddleware: sessionIfCookie(sessionMiddleware), allowedOrigins, logger, events },
    reads: liveReads(dbHandle.db, createSnapshotCache({ events, redis, logger })),
    sessionCheck: createSessionCheck(sessionsRepo),
    flood: config.rateLimit ? undefined : false,
    adapter: redis?.adapter,
    metrics,
  });
  const closer = createClosingScheduler();
  const lifecycle = createLifecycle(metrics);

  const ctx: AppContext = {
    config,
    db: dbHandle.db,
    get sqlite() {
      return dbHandle.sqlite;
    },
    logger,
    mailer,
    sessions,
    csrf,
    events,
    realtime,
    ...(redis ? { redis } : {}),
    closer,
    bidLanes: createBidLanes(),
    metrics,
    lifecycle,
  };

  const passport = configurePassport(ctx, sessionCache.findUser);
  await applyAdminEmails(ctx);

  installPassportRequest(app.request, passport);
  const fastSession = sessionFastPath({ store: sessions, secret, passport });
  mountHttp(app, ctx, lifecycle.track, withSession(sessionMiddleware, passport.session()), fastSession);

  if (deps.seed !== false && config.seedDemo) await seedIfEmpty(ctx);
  const stopJobs = startBackgroundJobs(ctx, closer);
  return appHandle({ app, httpServer, ctx, db: dbHandle }, stopJobs, lifecycle);
}

/** The app's database, migrated; its statements timed for GET /metrics (by SQL verb) when metrics are on. */
async function openMigrated(deps: AppDeps, metrics: Metrics): Promise<DbHandle> {
  const handle = await openAppDatabase({
    databaseUrl: deps.dbFile ? undefined : deps.config.databaseUrl,
    file: deps.dbFile ?? path.join(deps.config.dataDir, 'aukcije.sqlite'),
    onQuery: metrics.enabled ? (sqlText, seconds, failed) => metrics.dbQuery(sqlOperation(sqlText), seconds, failed) : undefined,
  });
  await migrateToLatest(handle.db);
  return handle;
}

/**
 * The HTTP stack in order: request tracking (shutdown, metrics), request log, security headers, GET /metrics,
 * the API, the client, the error handler.
 */
function mountHttp(app: express.Express, ctx: AppContext, track: RequestHandler, session: SessionStack, fastSession: SessionFastPath): void {
  app.use(track);
  const requestLog = requestLogger(ctx.logger);
  if (requestLog) app.use(requestLog);
  app.use(securityHeaders());
  app.get('/metrics', metricsRoute(ctx.config.metricsToken, ctx.metrics));
  app.use(cookieParser());
  const lists = publicListCache(ctx);
  // A visitor's list read answered from the cache skips the rest of the API's stack, with the headers it adds.
  app.use(
    '/api',
    cachedListAnswers(lists, (req, res) => {
      noStore(res);
      // No session ran: the visitor branch, a signed visitor token unless the cookie already holds a valid one.
      ctx.csrf.ensureCookie(req, res, () => undefined);
    }),
  );
  app.use('/api', apiRouter(ctx, lists, session.both, fastSession));
  serveClient(app, ctx, session.sessionMiddleware);
  app.use(errorHandler(ctx.logger));
}

interface SessionStack {
  sessionMiddleware: RequestHandler;
  /** express-session, then passport's session strategy. */
  both: RequestHandler;
}

function withSession(sessionMiddleware: RequestHandler, passportSession: RequestHandler): SessionStack {
  const both: RequestHandler = (req, res, next) => sessionMiddleware(req, res, (err?: unknown) => (err ? next(err) : passportSession(req, res, next)));
  return { sessionMiddleware, both };
}

/** What the sockets read, from the auctions feature (visitors' snapshots through its cache): realtime/ imports no feature. */
function liveReads(db: Db, cache: SnapshotCache): LiveReads {
  return {
    snapshot: (id, viewerId) => cache.snapshot(id, viewerId, () => getSnapshot(db, id, viewerId)),
    seqs: (ids) => getSeqs(db, ids),
  };
}

/**
 * Redis when REDIS_URL is set (several nodes); otherwise this node serves alone, and says so when its data
 * is in a database other nodes could share.
 */
export async function connectCluster(config: Config, logger: Logger): Promise<RedisHandle | undefined> {
  if (config.redisUrl) return connectRedis(config.redisUrl, config.redisPrefix, logger);
  if (config.sharedDatabase) logger.warn('DATABASE_URL without REDIS_URL: this node runs as the only node (its socket events and rate limits reach no other node)');
  return undefined;
}

/**
 * The session store (pruned from now on; its reads through the session cache), its middleware, and the secret
 * that signs cookies and visitor tokens.
 */
function createSessions(config: Config, dbHandle: DbHandle, cache: SessionCache) {
  const sessionsRepo = dbHandle.dialect === 'sqlite' ? sessionsRepository(dbHandle.sqlite) : pgSessionsRepository(dbHandle.db);
  const sessions = new SqliteSessionStore(cache.sessions(sessionsRepo));
  sessions.startPruning();
  const secret = loadSessionSecret(config.dataDir, config.sessionSecret);
  return { sessionsRepo, sessions, sessionMiddleware: createSessionMiddleware(config, sessions, secret), secret };
}

/** Sessions in the app's SQLite file behind the `sessionid` cookie (14 days, renewed on use). */
function createSessionMiddleware(config: Config, store: SqliteSessionStore, secret: string): RequestHandler {
  return session({
    name: SESSION_COOKIE,
    secret,
    store,
    resave: false,
    saveUninitialized: false,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.secureCookies,
      maxAge: 14 * 24 * 3600 * 1000,
    },
  });
}

/**
 * The API's request lines, or null when the logger would drop them: below info, pino-http would still build
 * and redact a child logger for every request and never write it (~5 % of busy time in B1, docs/performance.md).
 */
function requestLogger(logger: Logger): RequestHandler | null {
  if (!logger.isLevelEnabled('info')) return null;
  return pinoHttp({
    logger,
    autoLogging: { ignore: (req) => !req.url?.startsWith('/api/') },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: redactUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}

/** helmet with the CSP the client and Google sign-in need. */
function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", 'https://accounts.google.com/gsi/client'],
        'style-src': ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'],
        'img-src': ["'self'", 'data:', 'blob:', 'https://*.googleusercontent.com'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", 'https://accounts.google.com/gsi/'],
        'frame-src': ['https://accounts.google.com/gsi/'],
        'object-src': ["'none'"],
        'base-uri': ["'none'"], // ASVS 5.0 V3.4.3: object-src and base-uri 'none'
        'form-action': ["'self'", 'https://accounts.google.com'],
        'frame-ancestors': ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // Google Identity Services' popup needs to talk back to the opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
}

/**
 * Everything under /api: body parsers, the session (only where one exists or starts), no caching, CSRF,
 * the feature routes, and the JSON 404.
 */
function apiRouter(ctx: AppContext, lists: ListCache, withSession: RequestHandler, fastSession: SessionFastPath): express.Router {
  const api = express.Router();
  api.use(express.json({ limit: '100kb' }));
  api.use(express.urlencoded({ extended: false, limit: '100kb' }));
  // No passport.initialize(): since passport 0.6 authenticate() (here: the session strategy) sets up
  // req.login/logout itself; initialize() only adds a compatibility shim for passport 0.4 strategies, at
  // ~3 % of busy time per request (docs/performance.md, B1).
  api.use((req, res, next) => {
    // A read without a session cookie is anonymous and stays so: express-session would build a throwaway
    // session (random id, objects, hashes) and passport would inspect it, ~10 % of such a request
    // (docs/performance.md, B3). Only the reads that start a session for a newcomer get one.
    if (SAFE_METHODS.has(req.method) && !req.cookies?.[SESSION_COOKIE] && !STARTS_SESSION.has(req.path)) return next();
    // The bid routes only read the session: the same req.session and req.user for less (session-fast-path.ts).
    fastSession(req, res, next, withSession);
  });
  api.use((_req, res, next) => {
    noStore(res);
    next();
  });
  api.use(ctx.csrf.ensureCookie);
  api.get('/csrf/', ctx.csrf.tokenRoute);
  api.use(csrfExemptRoutes(ctx));
  api.use(ctx.csrf.protect);
  api.use(apiRoutes(ctx, lists));
  api.use(apiNotFound);
  return api;
}

/** Nothing under /api is cached by a browser or a proxy. */
function noStore(res: express.Response): void {
  res.setHeader('Cache-Control', 'no-store');
}

function parseTrustProxy(v: string): boolean | number | string {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}
