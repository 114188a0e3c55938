import type SQLite from 'better-sqlite3';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { Db } from './db/types';
import type { Mailer } from './lib/mailer';
import type { RedisHandle } from './lib/redis';
import type { SqliteSessionStore } from './http/session-store';
import type { Csrf } from './http/csrf';
import type { Realtime } from './realtime/index';
import type { ClosingScheduler } from './features/auctions/closing.scheduler';
import type { BidLanes } from './features/bids/bid-lanes';

/** What every feature module receives: the app's dependencies, built once in createApp(). */
export interface AppContext {
  config: Config;
  db: Db;
  /** SQLite only (tests and tools): throws on PostgreSQL (db/connection.ts, DbHandle). */
  readonly sqlite: SQLite.Database;
  logger: Logger;
  mailer: Mailer;
  sessions: SqliteSessionStore;
  csrf: Csrf;
  realtime: Realtime;
  /** Redis (REDIS_URL): socket fan-out and rate-limit counters shared by every node; absent on one node. */
  redis?: RedisHandle;
  /** The auction closer's timer; started with the background jobs. */
  closer: ClosingScheduler;
  /** This node's bids on one auction take turns here before the row lock (features/bids/bid-lanes.ts). */
  bidLanes: BidLanes;
}
