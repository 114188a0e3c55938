/**
 * The numbers an operator watches (GET /metrics, Prometheus text format through prom-client). On only with
 * METRICS_TOKEN: without it every instrument is a no-op and prom-client is never loaded (the build keeps it
 * external, like the Redis packages), so a node that nobody scrapes pays nothing. Each app has a registry of
 * its own (tests run several apps in one process).
 *
 * Labels carry only bounded, non-personal values: route templates (`/api/auction/:id/`, never a path with an
 * id), status codes, error codes, event names, SQL verbs. No e-mail, name or id ever becomes a label.
 */
import type { Counter, Histogram, Registry } from 'prom-client';

export type BidOutcome = 'accepted' | 'refused' | 'replayed';

export interface Metrics {
  readonly enabled: boolean;
  /** One answered HTTP request: its route template (or a fixed name for what no route matched). */
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  /** A bid (`bid`) or a maximum (`auto_bid`) and its outcome; `reason` is the refusal's error code. */
  bid(kind: 'bid' | 'auto_bid' | 'buy_now', outcome: BidOutcome, reason: string): void;
  /** How the number of sockets connected to this node is read at each scrape. */
  sockets(read: () => number): void;
  /** A socket joined `rooms` auction rooms through `auction:join` or `auctions:watch`. */
  roomJoins(kind: 'join' | 'watch', rooms: number): void;
  /** One event emitted to one room (auction or user). */
  fannedOut(event: string): void;
  /** An auction closed this long (seconds) after its end_date. */
  auctionClosed(delaySeconds: number): void;
  /** One database statement and how long it took. */
  dbQuery(operation: string, seconds: number, failed: boolean): void;
  /** How the closer's lag is read at each scrape: seconds since the oldest still-open auction was due (0: none). */
  closerLag(read: () => Promise<number>): void;
  /** The exposition: content type and text. */
  render(): Promise<{ contentType: string; body: string }>;
}

const noop = () => undefined;

/** Metrics off (no METRICS_TOKEN): every call does nothing. */
export const NO_METRICS: Metrics = {
  enabled: false,
  httpRequest: noop,
  bid: noop,
  sockets: noop,
  roomJoins: noop,
  fannedOut: noop,
  auctionClosed: noop,
  dbQuery: noop,
  closerLag: noop,
  render: () => Promise.reject(new Error('metrics are off (METRICS_TOKEN unset)')),
};

/** SQL verbs used as the `operation` label; anything else is `other`. */
const OPERATIONS = new Set(['select', 'insert', 'update', 'delete', 'with', 'begin', 'commit', 'rollback', 'savepoint', 'release', 'pragma']);

/** The statement's verb (`select`, `insert`, …): a fixed set, never the SQL text. */
export function sqlOperation(sqlText: string): string {
  const verb = /^\s*([a-z]+)/i.exec(sqlText)?.[1]?.toLowerCase() ?? '';
  return OPERATIONS.has(verb) ? verb : 'other';
}

/** Seconds: HTTP answers and statements, from 1 ms (a cached SQLite read is well below) to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DB_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];
/** Seconds after end_date: the closer aims at it and polls every second at most. */
const CLOSE_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300];

interface Instruments {
  http: Histogram<'method' | 'route' | 'status_code'>;
  bids: Counter<'kind' | 'outcome' | 'reason'>;
  joins: Counter<'kind'>;
  events: Counter<'event'>;
  closeDelay: Histogram;
  db: Histogram<'operation' | 'status'>;
}

type Prom = typeof import('prom-client');

/** The app's counters and histograms in `registry`. */
function instruments(prom: Prom, registry: Registry): Instruments {
  const registers = [registry];
  return {
    http: new prom.Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP answers by route template and status',
      labelNames: ['method', 'route', 'status_code'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    bids: new prom.Counter({
      name: 'aukcije_bids_total',
      help: 'Bids (POST /api/bids/) and maxima (PUT /api/auctions/{id}/auto-bid/) by outcome; reason is the refusal code',
      labelNames: ['kind', 'outcome', 'reason'],
      registers,
    }),
    joins: new prom.Counter({
      name: 'aukcije_room_joins_total',
      help: 'Auction rooms joined by sockets (auction:join, auctions:watch)',
      labelNames: ['kind'],
      registers,
    }),
    events: new prom.Counter({
      name: 'aukcije_events_fanned_out_total',
      help: 'Live events emitted to a room by this node (each reaches every socket of the room, on every node)',
      labelNames: ['event'],
      registers,
    }),
    closeDelay: new prom.Histogram({
      name: 'aukcije_auction_close_delay_seconds',
      help: 'How long after its end_date each auction was closed by this node',
      buckets: CLOSE_BUCKETS,
      registers,
    }),
    db: new prom.Histogram({
      name: 'aukcije_db_query_duration_seconds',
      help: 'Database statements by SQL verb',
      labelNames: ['operation', 'status'],
      buckets: DB_BUCKETS,
      registers,
    }),
  };
}

/** What the two gauges read at each scrape, handed in later by the realtime layer and the closer. */
interface Sources {
  sockets?: () => number;
  lag?: () => Promise<number>;
}

/** The gauges read at scrape time: sockets connected and the closer's lag. */
function scrapedGauges(prom: Prom, registry: Registry, sources: Sources): void {
  new prom.Gauge({
    name: 'aukcije_sockets_connected',
    help: 'socket.io clients connected to this node',
    registers: [registry],
    collect() {
      if (sources.sockets) this.set(sources.sockets());
    },
  });
  new prom.Gauge({
    name: 'aukcije_closer_lag_seconds',
    help: 'Seconds since the oldest auction that is still open was due to close (0: none is overdue)',
    registers: [registry],
    async collect() {
      if (!sources.lag) return;
      try {
        this.set(await sources.lag());
      } catch {
        // the database does not answer: the scrape still succeeds, without this sample's update
      }
    },
  });
}

/** Metrics on: loads prom-client, the default process metrics and the app's instruments into a registry of their own. */
export async function createMetrics(): Promise<Metrics> {
  const prom = await import('prom-client');
  const registry: Registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry });
  const m = instruments(prom, registry);
  const sources: Sources = {};
  scrapedGauges(prom, registry, sources);
  return {
    enabled: true,
    httpRequest: (method, route, status, seconds) => m.http.observe({ method, route, status_code: String(status) }, seconds),
    bid: (kind, outcome, reason) => m.bids.inc({ kind, outcome, reason }),
    sockets: (read) => {
      sources.sockets = read;
    },
    roomJoins: (kind, rooms) => {
      if (rooms > 0) m.joins.inc({ kind }, rooms);
    },
    fannedOut: (event) => m.events.inc({ event }),
    auctionClosed: (delay) => m.closeDelay.observe(Math.max(0, delay)),
    dbQuery: (operation, seconds, failed) => m.db.observe({ operation, status: failed ? 'error' : 'ok' }, seconds),
    closerLag: (read) => {
      sources.lag = read;
    },
    render: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
}
