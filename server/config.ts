import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_RATING_WINDOW_DAYS } from '@shared/rules/sales';

const flag = (def: '0' | '1') =>
  z
    .enum(['0', '1', 'true', 'false'])
    .default(def)
    .transform((v) => v === '1' || v === 'true');

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** postgres://… selects PostgreSQL; unset keeps SQLite in DATA_DIR. */
  DATABASE_URL: optionalString.pipe(z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://').optional()),
  MEDIA_DIR: optionalString,
  REDIS_URL: optionalString.pipe(z.url().optional()),
  REDIS_PREFIX: z.string().default('aukcije:'),
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  SESSION_SECRET: optionalString.pipe(z.string().min(16, 'SESSION_SECRET must be at least 16 characters').optional()),
  SMTP_URL: optionalString,
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  ADMIN_EMAILS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  SEED_DEMO: flag('1'),
  AUCTION_DAY_SECONDS: z.coerce.number().positive().default(86400),
  SOFT_CLOSE_SECONDS: z.coerce.number().min(0).default(120),
  ENDING_SOON_SECONDS: z.coerce.number().min(0).default(900),
  RATING_WINDOW_DAYS: z.coerce.number().positive().default(DEFAULT_RATING_WINDOW_DAYS),
  OUTBID_MAIL_WINDOW_SECONDS: z.coerce.number().positive().default(600),
  MAIL_RETRY_SECONDS: z.coerce.number().positive().default(60),
  SAVED_SEARCH_WINDOW_SECONDS: z.coerce.number().positive().default(3600),
  MAIL_POLL_SECONDS: z.coerce.number().positive().default(5),
  RATE_LIMIT: flag('1'),
  ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((e) => e.trim().replace(/\/$/, ''))
        .filter(Boolean),
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: optionalString,
  /** GET /metrics answers only `Authorization: Bearer <this>`; unset, /metrics is a 404. */
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional()),
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(3600).default(5),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  /** Test/dev only: where the Google OpenID provider lives (a fake one on loopback in tests). */
  GOOGLE_ISSUER: z.string().default('https://accounts.google.com'),
  GOOGLE_JWKS_URL: z.string().default('https://www.googleapis.com/oauth2/v3/certs'),
  GOOGLE_AUTH_URL: z.string().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.string().default('https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: z.string().default('https://openidconnect.googleapis.com/v1/userinfo'),
});

export type Env = z.input<typeof EnvSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL's connection URL; undefined means SQLite in dataDir. */
  databaseUrl?: string;
  /** Uploaded images; several nodes share one folder (default DATA_DIR/media). */
  mediaDir: string;
  /** Redis for the socket.io adapter and the rate-limit counters; unset on a single node. */
  redisUrl?: string;
  /** Prefix of every Redis key and channel this app uses (tests give each run its own). */
  redisPrefix: string;
  /** DATABASE_URL is set: the data lives in a database other nodes may share. */
  sharedDatabase: boolean;
  publicUrl: string;
  secureCookies: boolean;
  sessionSecret?: string;
  smtpUrl?: string;
  google: {
    clientId?: string;
    clientSecret?: string;
    issuer: string;
    jwksUrl: string;
    authUrl: string;
    tokenUrl: string;
    userinfoUrl: string;
  };
  adminEmails: string[];
  seedDemo: boolean;
  auctionDaySeconds: number;
  softCloseSeconds: number;
  /** Watchers and bidders are told once when this much of an auction is left (issue 14); 0 turns it off. */
  endingSoonSeconds: number;
  /** Auction days (auctionDaySeconds each) after a sale's end during which both sides may rate (issue 23). */
  ratingWindowDays: number;
  /** At most one outbid mail per member and auction in this long; later ones fold into one at its end (issue 27). */
  outbidMailWindowSeconds: number;
  /** At most one notification per saved search in this long; later matches fold into one at its end (issue 28). */
  savedSearchWindowSeconds: number;
  /** A failed mail is tried again after this long, doubling per attempt up to an hour. */
  mailRetrySeconds: number;
  /** How often the mail worker looks for due mails besides being woken by a new notification. */
  mailPollSeconds: number;
  rateLimit: boolean;
  allowedOrigins: string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  trustProxy?: string;
  /** Bearer token of GET /metrics; undefined: metrics off (404). */
  metricsToken?: string;
  /** On SIGTERM/SIGINT: how long health answers 503 while the node still serves (a load balancer moves away). */
  shutdownDrainSeconds: number;
  /** Then: how long requests in flight may take to finish before their connections are closed. */
  shutdownTimeoutSeconds: number;
}

export class ConfigError extends Error {}

/** Parses the environment once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Neispravna konfiguracija (environment):\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const sharedDatabase = e.DATABASE_URL !== undefined;
  // A generated secret lives in one node's DATA_DIR: cookies signed by it would be refused by the others.
  if (sharedDatabase && !e.SESSION_SECRET) {
    throw new ConfigError('Neispravna konfiguracija (environment):\n  SESSION_SECRET: obavezan je uz DATABASE_URL (isti na svim čvorovima)');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    mediaDir: e.MEDIA_DIR ? path.resolve(e.MEDIA_DIR) : path.join(dataDir, 'media'),
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    sharedDatabase,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    sessionSecret: e.SESSION_SECRET,
    smtpUrl: e.SMTP_URL,
    google: {
      clientId: e.GOOGLE_CLIENT_ID,
      clientSecret: e.GOOGLE_CLIENT_SECRET,
      issuer: e.GOOGLE_ISSUER,
      jwksUrl: e.GOOGLE_JWKS_URL,
      authUrl: e.GOOGLE_AUTH_URL,
      tokenUrl: e.GOOGLE_TOKEN_URL,
      userinfoUrl: e.GOOGLE_USERINFO_URL,
    },
    adminEmails: e.ADMIN_EMAILS,
    seedDemo: e.SEED_DEMO,
    auctionDaySeconds: e.AUCTION_DAY_SECONDS,
    softCloseSeconds: e.SOFT_CLOSE_SECONDS,
    endingSoonSeconds: e.ENDING_SOON_SECONDS,
    ratingWindowDays: e.RATING_WINDOW_DAYS,
    outbidMailWindowSeconds: e.OUTBID_MAIL_WINDOW_SECONDS,
    mailRetrySeconds: e.MAIL_RETRY_SECONDS,
    savedSearchWindowSeconds: e.SAVED_SEARCH_WINDOW_SECONDS,
    mailPollSeconds: e.MAIL_POLL_SECONDS,
    rateLimit: e.RATE_LIMIT,
    allowedOrigins: e.ALLOWED_ORIGINS,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS,
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
  };
}
