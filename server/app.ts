import http from 'node:http';
import path from 'node:path';
import express from 'express';
import session from 'express-session';
import cookieParser from 'cookie-parser';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { AppContext } from './context';
import { migrateToLatest, openDatabase, type DbHandle } from './db/connection';
import { createLogger } from './lib/logger';
import { createMailer, type Mailer } from './lib/mailer';
import { loadSessionSecret } from './lib/secret';
import { SESSION_COOKIE, SqliteSessionStore } from './http/session-store';
import { createCsrf } from './http/csrf';
import { apiNotFound, errorHandler } from './http/errors';
import { createRealtime } from './realtime/index';
import { configurePassport } from './features/accounts/passport';
import { applyAdminEmails, redactUrl } from './features/accounts/startup';
import { apiRoutes, startBackgroundJobs } from './features/index';
import { createClosingScheduler } from './features/auctions/closing.scheduler';
import { seedIfEmpty } from './db/seed';
import { serveClient } from './http/spa';

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

export interface App {
  app: express.Express;
  httpServer: http.Server;
  ctx: AppContext;
  db: DbHandle;
  /** Listens on config.host:config.port (0 = any free port) and resolves with the bound port. */
  listen(port?: number, host?: string): Promise<number>;
  close(): Promise<void>;
}

/** Builds the whole server: database (migrated), sessions, CSRF, passport, REST, sockets, client. */
export async function createApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  const logger = deps.logger ?? createLogger(config.logLevel);
  const dbHandle = openDatabase(deps.dbFile ?? path.join(config.dataDir, 'aukcije.sqlite'));
  await migrateToLatest(dbHandle.db);

  const app = express();
  const httpServer = http.createServer(app);
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy ? parseTrustProxy(config.trustProxy) : false);
  app.set('etag', false);

  const sessions = new SqliteSessionStore(dbHandle.sqlite);
  sessions.startPruning();
  const sessionMiddleware = session({
    name: SESSION_COOKIE,
    secret: loadSessionSecret(config.dataDir, config.sessionSecret),
    store: sessions,
    resave: false,
    saveUninitialized: false,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.secureCookies,
      maxAge: 14 * 24 * 3600 * 1000,
    },
  });

  const allowedOrigins = [new URL(config.publicUrl).origin, ...config.allowedOrigins];
  const csrf = createCsrf({ secure: config.secureCookies, allowedOrigins });
  const mailer =
    deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), logger });
  const realtime = createRealtime({
    httpServer,
    sessionMiddleware,
    allowedOrigins,
    logger,
    db: dbHandle.db,
    sqlite: dbHandle.sqlite,
    flood: config.rateLimit ? undefined : false,
  });

  const ctx: AppContext = {
    config,
    db: dbHandle.db,
    sqlite: dbHandle.sqlite,
    logger,
    mailer,
    sessions,
    csrf,
    realtime,
    closer: createClosingScheduler(),
  };

  const passport = configurePassport(ctx);
  await applyAdminEmails(ctx);

  // Request lines are written at info. Below that level pino-http would still build and redact a child
  // logger for every request and never write it (~5 % of busy time in B1, docs/performance.md).
  if (logger.isLevelEnabled('info')) {
    app.use(
      pinoHttp({
        logger,
        autoLogging: { ignore: (req) => !req.url?.startsWith('/api/') },
        serializers: {
          req: (req: { method: string; url: string }) => ({ method: req.method, url: redactUrl(req.url) }),
          res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        },
      }),
    );
  }
  app.use(
    helmet({
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
    }),
  );
  app.use(cookieParser());

  const api = express.Router();
  api.use(express.json({ limit: '100kb' }));
  api.use(express.urlencoded({ extended: false, limit: '100kb' }));
  // No passport.initialize(): since passport 0.6 authenticate() (here: the session strategy) sets up
  // req.login/logout itself; initialize() only adds a compatibility shim for passport 0.4 strategies, at
  // ~3 % of busy time per request (docs/performance.md, B1).
  const passportSession = passport.session();
  api.use((req, res, next) => {
    // A read without a session cookie is anonymous and stays so: express-session would build a throwaway
    // session (random id, objects, hashes) and passport would inspect it, ~10 % of such a request
    // (docs/performance.md, B3). Only the reads that start a session for a newcomer get one.
    if (SAFE_METHODS.has(req.method) && !req.cookies?.[SESSION_COOKIE] && !STARTS_SESSION.has(req.path)) return next();
    sessionMiddleware(req, res, (err?: unknown) => (err ? next(err) : passportSession(req, res, next)));
  });
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  api.use(csrf.ensureCookie);
  api.get('/csrf/', csrf.tokenRoute);
  api.use(csrf.protect);
  api.use(apiRoutes(ctx));
  api.use(apiNotFound);
  app.use('/api', api);

  serveClient(app, ctx, sessionMiddleware);
  app.use(errorHandler(logger));

  if (deps.seed !== false && config.seedDemo) await seedIfEmpty(ctx);
  const stopJobs = startBackgroundJobs(ctx);

  let closed = false;
  return {
    app,
    httpServer,
    ctx,
    db: dbHandle,
    listen(port = config.port, host = config.host) {
      return new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          const addr = httpServer.address();
          resolve(typeof addr === 'object' && addr ? addr.port : port);
        });
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      stopJobs();
      sessions.stopPruning();
      await realtime.close();
      if (httpServer.listening) await new Promise<void>((r) => httpServer.close(() => r()));
      await dbHandle.close();
    },
  };
}

function parseTrustProxy(v: string): boolean | number | string {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}
