import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import type { AppContext } from '../../server/context';

/**
 * The bid path's read of the auction under its row lock (bids.repository.ts lockAuction): the whole row and, in
 * the same statement, whether its seller blocked the bidder (issue 24), so the block costs no round trip.
 */
export const LOCKED_AUCTION_READ = /^select "a"\.\*, exists \(select 1 from member_blocks as mb where mb\.blocker_id = a\.seller_id and mb\.blocked_id = (\?|\$\d+)\) as "blocked" from "auctions" as "a" where "a"\."id" = (\?|\$\d+)( for no key update)?$/;

/** The bid's quick check before its transaction (bids.repository.ts findBidGate), with the same block lookup. */
export const BID_GATE_READ = /^select "a"\."seller_id", "a"\."status", "a"\."end_date", "a"\."current_price", exists \(select 1 from member_blocks/;

export interface StatementLog {
  /** SQL of every statement executed since the last reset (the session store's and background jobs' own left out). */
  sources: string[];
  reset(): void;
  /**
   * Called after each recorded statement has run (e.g. to write between two steps of a request). On
   * PostgreSQL the statement's answer waits for a returned promise; on SQLite it must do its work synchronously.
   */
  afterEach?: (source: string) => void | Promise<void>;
  /** Puts the original methods back. */
  stop(): void;
}

/**
 * Records the SQL of executed statements (not prepared ones: the server reuses prepared statements, so every
 * execution goes through a statement's all/get/run/iterate). The session store's statements (the visitor's
 * session) are not part of a request's own work and are left out, and so are the background jobs' (the closer
 * wakes every second, and under a loaded CI its pass can overlap every run of a measured request): they are
 * told by their call stack (async stack traces reach the job's timer function; see backgroundJob below).
 */
export function recordStatements(sqlite: Database.Database, opts: RecordOptions = {}): StatementLog {
  const skipped = skip(opts);
  type Exec = (this: { source: string }, ...args: unknown[]) => unknown;
  const proto = Object.getPrototypeOf(sqlite.prepare('select 1')) as Record<'all' | 'get' | 'run' | 'iterate', Exec>;
  const methods = ['all', 'get', 'run', 'iterate'] as const;
  const originals = methods.map((m) => proto[m]);
  const log: StatementLog = {
    sources: [],
    reset: () => {
      log.sources = [];
    },
    stop: () => methods.forEach((m, i) => (proto[m] = originals[i]!)),
  };
  methods.forEach((m, i) => {
    const original = originals[i]!;
    proto[m] = function (this: { source: string }, ...args: unknown[]) {
      if (skipped(this.source)) return original.apply(this, args);
      log.sources.push(this.source);
      const result = original.apply(this, args);
      log.afterEach?.(this.source);
      return result;
    };
  });
  return log;
}

/**
 * recordStatements for the app's own database: SQLite through the raw connection, PostgreSQL through `pg`'s
 * Client.query (the one the app's pool uses; process-wide like the SQLite form). On PostgreSQL `afterEach`
 * runs once a statement's answer has arrived.
 */
export function recordStatementsOf(ctx: AppContext, opts: RecordOptions = {}): StatementLog {
  return ctx.config.databaseUrl ? recordPgStatements(opts) : recordStatements(ctx.sqlite, opts);
}

export interface RecordOptions {
  /** Record the session store's statements too (the session cache's test: which reads a request still makes). */
  sessions?: boolean;
}

/** Whether a statement is left out of the log: a background job's, or the session store's unless asked for. */
function skip(opts: RecordOptions): (source: string) => boolean {
  return (source) => (!opts.sessions && /\bsessions\b/i.test(source)) || backgroundJob();
}

function recordPgStatements(opts: RecordOptions): StatementLog {
  const skipped = skip(opts);
  type Query = (this: unknown, ...args: unknown[]) => unknown;
  const pg = createRequire(import.meta.url)('pg') as { Client: { prototype: { query: Query } } };
  const proto = pg.Client.prototype;
  const original = proto.query;
  const log: StatementLog = {
    sources: [],
    reset: () => {
      log.sources = [];
    },
    stop: () => {
      proto.query = original;
    },
  };
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const source = typeof first === 'string' ? first : ((first as { text?: string } | null)?.text ?? '');
    if (skipped(source)) return original.apply(this, args);
    log.sources.push(source);
    const result = original.apply(this, args);
    if (!(result instanceof Promise)) return result;
    return result.then(async (r: unknown) => {
      await log.afterEach?.(source);
      return r;
    });
  };
  return log;
}

/**
 * The server's timer-driven work, as it appears in a statement's (async) call stack: the closer's pass
 * (closing.scheduler.ts `run`, which closes auctions and sends ending-soon alerts), idempotency-key pruning
 * the sockets' session sweep (session pruning reads `sessions`, left out by its text), the mail worker and SQLite's
 * WAL checkpoints (db/wal-checkpoints.ts: after every 32 commits, and once a second while quiet).
 */
const BACKGROUND_FRAMES = /closing\.scheduler\.|idempotency-pruning\.|realtime[\\/]timers\.|email-alerts\.worker\.|wal-checkpoints\.|stray-notices\./;

/** Whether the statement being executed was started by a background job rather than a request. */
export function backgroundJob(): boolean {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  try {
    return BACKGROUND_FRAMES.test(new Error().stack ?? '');
  } finally {
    Error.stackTraceLimit = limit;
  }
}
