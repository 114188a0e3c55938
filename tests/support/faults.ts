/**
 * Faults for the two-node tests (tests/reliability/*-fault.test.ts, issue 29): a Redis server of the test's own
 * (started, killed, started again on the same port) and a TCP proxy in front of PostgreSQL that can be cut. The
 * machine's shared PostgreSQL and Redis are never stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort } from './app';
import type { ApiClient } from './http';
import { sleep } from './sockets';

export interface OwnRedis {
  url: string;
  port: number;
  /** Whether the process runs now. */
  running(): boolean;
  /** SIGKILL: Redis is gone at once, as in a crash (nothing saved: it keeps no data on disk). */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty) and resolves once it answers PING. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Resolves once something answers a PING on `port` with +PONG, or throws after `timeoutMs`. */
async function waitForPong(port: number, timeoutMs: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.setTimeout(500, () => (s.destroy(), resolve(false)));
      s.once('error', () => resolve(false));
      s.once('connect', () => s.write('PING\r\n'));
      s.once('data', (d) => (s.destroy(), resolve(d.toString().startsWith('+PONG'))));
    });
    if (ok) return;
    if (Date.now() - t0 > timeoutMs) throw new Error(`own redis-server on ${port} did not answer within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** A `redis-server` of the test's own on a free loopback port: no persistence, no other client. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let proc: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const start = async () => {
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], {
      stdio: 'ignore',
    });
    proc = child;
    exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.once('exit', () => {
      if (proc === child) proc = null;
    });
    child.once('error', () => undefined);
    await waitForPong(port, 10_000);
  };
  const kill = async () => {
    proc?.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, running: () => proc !== null, kill, start, close: kill };
}

export interface CuttableProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Closes every connection through it and refuses new ones (they are closed at once), until restore(). */
  cut(): void;
  restore(): void;
  /** Connections open through it now. */
  open(): number;
  close(): Promise<void>;
}

/** A TCP proxy on loopback to `host:port` (PostgreSQL) that a test can cut and restore. */
export async function startCuttableProxy(host: string, port: number): Promise<CuttableProxy> {
  const sockets = new Set<net.Socket>();
  let up = true;
  const server = net.createServer((client) => {
    if (!up) return client.destroy();
    const upstream = net.connect(port, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    const both = () => (client.destroy(), upstream.destroy());
    client.on('close', both);
    upstream.on('close', both);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const own = (server.address() as net.AddressInfo).port;
  return {
    port: own,
    via(url: string) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(own);
      return u.toString();
    },
    cut() {
      up = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      up = true;
    },
    open: () => sockets.size / 2,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** One answer of the load a fault test keeps up while it breaks something. */
export interface Answer {
  what: 'bid' | 'list';
  /** The base URL of the node that answered. */
  node: string;
  /** The HTTP status, or 'lost' when the request failed without an answer. */
  status: number | 'lost';
  /** How long the answer took. */
  ms: number;
  /** When it was sent (Date.now()). */
  at: number;
  body: unknown;
  bidder?: number;
  auction?: number;
  amount?: number;
}

export interface LoadOptions {
  /** Logged-in bidders, each on the node its client talks to. */
  bidders: { id: number; api: ApiClient }[];
  /** Visitors that read the public list (`GET /api/auctions/?page=1`). */
  readers: ApiClient[];
  auctions: number[];
  until: () => boolean;
  answers: Answer[];
  /** Pause between two requests of one client (a steady load, not a flood). */
  pauseMs?: number;
}

/**
 * Bids (above the price each bidder last heard, with an Idempotency-Key) and list reads from every client in
 * turn until `until()`, every answer recorded. A client that got a 503 waits a little longer before its next try.
 */
export async function steadyLoad(o: LoadOptions): Promise<void> {
  const pause = o.pauseMs ?? 20;
  const known = new Map<number, number>();
  let n = 0;
  const timed = async (what: Answer['what'], api: ApiClient, send: () => Promise<{ status: number; body: unknown }>, extra: Partial<Answer>) => {
    const at = Date.now();
    let status: Answer['status'] = 'lost';
    let body: unknown = null;
    try {
      ({ status, body } = await send());
    } catch (err) {
      body = String(err);
    }
    o.answers.push({ what, node: api.baseUrl, status, ms: Date.now() - at, at, body, ...extra });
    await sleep(status === 503 || status === 'lost' ? pause * 5 : pause);
    return { status, body };
  };
  await Promise.all([
    ...o.bidders.map(async (b) => {
      while (!o.until()) {
        const auction = o.auctions[n++ % o.auctions.length]!;
        const amount = (known.get(auction) ?? 1000) + 10 + 10 * (n % 3);
        const key = `fault-${b.id}-${n}`;
        const r = await timed('bid', b.api, () => b.api.post('/api/bids/', { auction_item_id: auction, amount }, { headers: { 'idempotency-key': key } }), {
          bidder: b.id,
          auction,
          amount,
        });
        const price = (r.body as { current_price?: unknown } | null)?.current_price;
        if (typeof price === 'number') known.set(auction, Math.max(known.get(auction) ?? 0, price));
      }
    }),
    ...o.readers.map(async (api) => {
      while (!o.until()) await timed('list', api, () => api.get('/api/auctions/?page=1'), {});
    }),
  ]);
}

/** Polls GET /api/health/ of each node every `everyMs` until `until()`: the statuses seen, with their time. */
export async function pollHealth(urls: string[], until: () => boolean, seen: { node: string; at: number; status: number | 'lost'; body: unknown }[], everyMs = 100): Promise<void> {
  await Promise.all(
    urls.map(async (node) => {
      while (!until()) {
        const at = Date.now();
        try {
          const res = await fetch(`${node}/api/health/`, { signal: AbortSignal.timeout(5000) });
          seen.push({ node, at, status: res.status, body: await res.json() });
        } catch (err) {
          seen.push({ node, at, status: 'lost', body: String(err) });
        }
        await sleep(everyMs);
      }
    }),
  );
}
