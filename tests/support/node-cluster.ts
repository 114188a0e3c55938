/**
 * Two (or more) real server processes (server/index.ts bundled as for the crash tests) on one PostgreSQL
 * database and one Redis, as docs/scaling.md runs them: DATABASE_URL, the same SESSION_SECRET and PUBLIC_URL,
 * one shared MEDIA_DIR, a DATA_DIR each. PostgreSQL in every run: under `npm run test:pg` the database is
 * copied from the run's template, in the SQLite run it is created empty and the first node migrates it
 * (processes on one SQLite file share its one writer: several nodes are meant for PostgreSQL, docs/scaling.md).
 * The PUBLIC_URL is a small TCP proxy in front of the nodes that sends each new connection to the next live node,
 * the way a load balancer would, so that a watcher whose node dies reconnects to another. */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { io } from 'socket.io-client';
import { openAppDatabase, type DbHandle } from '../../server/db/connection';
import { SeqBook } from '../../client/src/features/live/seq';
import type { BidPlacedEvent } from '@shared/schemas/bids';
import { freePort, tempDataDir } from './app';
import { ApiClient } from './http';
import { dropRedisPrefix, requireRedis, TEST_REDIS_URL, uniqueRedisPrefix } from './multinode';
import { createTestDatabase, databaseUrl, dropTestDatabase, onPostgres } from './pg';
import { buildServerBundle, removeBundle, spawnServer, type ChildServer } from './reliability-server';
import type { TestSocket } from './sockets';

export interface TcpProxy {
  url: string;
  /** Where new connections go, tried in turn from the next one on (a refused node is skipped). */
  targets: number[];
  /** Connections open now, by the node port they reached. */
  open(): Map<number, number>;
  close(): Promise<void>;
}

/** A TCP proxy on loopback: round robin over `targets`, skipping nodes that refuse the connection. */
export async function startTcpProxy(): Promise<TcpProxy> {
  const targets: number[] = [];
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket | null; port: number }>();
  let next = 0;
  const server = net.createServer((client) => {
    const pair = { client, upstream: null as net.Socket | null, port: 0 };
    pairs.add(pair);
    client.pause();
    const done = () => {
      pairs.delete(pair);
      client.destroy();
      pair.upstream?.destroy();
    };
    client.on('error', done).on('close', done);
    const attempt = (tries: number) => {
      if (tries >= targets.length) return done();
      const port = targets[next++ % targets.length];
      const upstream = net.connect(port, '127.0.0.1');
      upstream.once('connect', () => {
        pair.upstream = upstream;
        pair.port = port;
        upstream.on('error', done).on('close', done);
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      upstream.once('error', () => {
        if (!pair.upstream) attempt(tries + 1);
      });
    };
    attempt(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    open() {
      const by = new Map<number, number>();
      for (const p of pairs) if (p.upstream) by.set(p.port, (by.get(p.port) ?? 0) + 1);
      return by;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const p of pairs) {
          p.client.destroy();
          p.upstream?.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

export interface NodeCluster {
  nodes: ChildServer[];
  proxy: TcpProxy;
  /** The test's own connection to the shared database (seeding and checks). */
  h: DbHandle;
  /** The environment every node got (DATABASE_URL, REDIS_PREFIX, MEDIA_DIR, PUBLIC_URL, …). */
  env: Record<string, string>;
  /** The PUBLIC_URL of every node (the proxy), to send as Origin. */
  publicUrl: string;
  /** SIGKILL every node, close the proxy and the connection, drop the database and the Redis keys. */
  close(): Promise<void>;
}

export interface NodeClusterOptions {
  /** The DATABASE_URL the nodes get, from the database's own (e.g. through a proxy a fault test can cut); the test's `h` connects directly. */
  nodeDatabaseUrl?: (direct: string) => string;
}

/** Starts `count` server processes on one database (see the top of this file) and one Redis prefix. */
export async function startNodeCluster(name: string, count = 2, extraEnv: Record<string, string> = {}, opts: NodeClusterOptions = {}): Promise<NodeCluster> {
  await requireRedis();
  const cleanup: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const f of cleanup.splice(0).reverse()) {
      try {
        await f();
      } catch {
        // the rest still runs
      }
    }
  };
  try {
    const bundle = await buildServerBundle(`cluster-${name}`);
    cleanup.push(() => removeBundle(bundle));
    const root = tempDataDir(`aukcije-nodes-${name}-`);
    cleanup.push(() => fs.rmSync(root, { recursive: true, force: true }));
    const prefix = uniqueRedisPrefix();
    cleanup.push(() => dropRedisPrefix(prefix));
    const proxy = await startTcpProxy();
    cleanup.push(() => proxy.close());
    const mediaDir = path.join(root, 'media');
    fs.mkdirSync(mediaDir, { recursive: true });
    const env: Record<string, string> = { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, MEDIA_DIR: mediaDir, PUBLIC_URL: proxy.url, ...extraEnv };
    const dbName = await createTestDatabase({ unmigrated: !onPostgres });
    cleanup.push(() => dropTestDatabase(dbName));
    const direct = databaseUrl(dbName);
    env.DATABASE_URL = opts.nodeDatabaseUrl ? opts.nodeDatabaseUrl(direct) : direct;
    const nodes: ChildServer[] = [];
    cleanup.push(async () => {
      for (const n of nodes) await n.kill9();
    });
    // One after the other: in the SQLite run the first node migrates the empty database, the next finds it done.
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      nodes.push(await spawnServer(bundle, path.join(root, `node-${i}`), port, env));
      proxy.targets.push(port);
    }
    const h = await openAppDatabase({ databaseUrl: direct, file: '' });
    cleanup.push(() => h.close());
    return { nodes, proxy, h, env, publicUrl: proxy.url, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Logs `email` in on `node` (Origin: the cluster's PUBLIC_URL) and fetches a CSRF token. */
export async function loginOn(c: NodeCluster, node: ChildServer, email: string, password: string): Promise<ApiClient> {
  const api = new ApiClient(node.url, c.publicUrl);
  const res = await api.post('/api/login/', { email, password });
  if (res.status !== 200) throw new Error(`login on ${node.url}: ${res.status}`);
  await api.ensureCsrf();
  return api;
}

/** The same browser (cookies) talking to another node. */
export function sameUserOn(c: NodeCluster, api: ApiClient, node: ChildServer): ApiClient {
  const other = new ApiClient(node.url, c.publicUrl);
  for (const [k, v] of api.cookies) other.cookies.set(k, v);
  return other;
}

/**
 * A watcher of one auction that follows the web client's rule (client/src/features/live/seq.ts, the real
 * SeqBook with its 300 ms hold): join → buffer → settle on the snapshot's seq → apply events in seq order. It
 * reconnects by itself (socket.io's reconnection) and then joins again, as the web client does on reconnect.
 */
export class Watcher {
  readonly socket: TestSocket;
  /** Seqs of the bids applied from events, in the order applied. */
  readonly applied: number[] = [];
  /** What the screen would show: the last snapshot, patched by every applied event. */
  state = { seq: -1, current_price: 0, bid_count: 0 };
  gaps = 0;
  joins = 0;
  /** The seq of each join's snapshot. */
  readonly snapshots: number[] = [];
  closed: { seq: number; winner_id: number | null; final_price: number }[] = [];
  private readonly book: SeqBook<BidPlacedEvent & { seq: number }>;

  constructor(
    url: string,
    readonly auctionId: number,
    origin: string,
  ) {
    this.book = new SeqBook({ onGap: () => ((this.gaps += 1), void this.join()) });
    this.socket = io(url, {
      transports: ['websocket'],
      extraHeaders: { origin },
      forceNew: true,
      reconnection: true,
      reconnectionDelay: 100,
      reconnectionDelayMax: 500,
      timeout: 5000,
    }) as TestSocket;
    this.socket.on('connect', () => void this.join());
    this.socket.on('bid:placed', (e) => this.take(this.book.push(e).apply));
    this.socket.on('auction:closed', (e) => this.closed.push({ seq: e.seq, winner_id: e.winner_id, final_price: e.final_price }));
  }

  /** Resolves once the first join has settled. */
  async ready(timeoutMs = 5000): Promise<void> {
    const t0 = Date.now();
    while (this.state.seq < 0) {
      if (Date.now() - t0 > timeoutMs) throw new Error('watcher never joined');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  private async join(): Promise<void> {
    this.book.begin(this.auctionId);
    try {
      const ack = await this.socket.timeout(5000).emitWithAck('auction:join', { auction_id: this.auctionId });
      if (!ack.ok) throw new Error(ack.detail);
      this.joins += 1;
      this.snapshots.push(ack.seq);
      this.state = { seq: ack.seq, current_price: ack.auction.current_price, bid_count: ack.auction.bid_count };
      this.take(this.book.settle(this.auctionId, ack.seq).apply);
    } catch {
      // the connection went away meanwhile: the next 'connect' joins again
    }
  }

  private take(events: (BidPlacedEvent & { seq: number })[]): void {
    for (const e of events) {
      this.applied.push(e.seq);
      this.state = { seq: e.seq, current_price: e.current_price, bid_count: e.bid_count };
    }
  }

  close(): void {
    this.socket.close();
  }
}
