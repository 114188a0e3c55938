/**
 * Redis for several nodes (REDIS_URL): the socket.io adapter that fans events out to every node, and the
 * counters of the HTTP rate limits. `redis`, the adapter and the store are imported here only, and only when
 * REDIS_URL is set, so a single SQLite node never loads them.
 */
import type { Logger } from 'pino';
import type { Store } from 'express-rate-limit';
import type { ServerOptions } from 'socket.io';
import { withTimeout } from './time';

/** A node waits this long for Redis at start before it refuses to start. */
const CONNECT_WAIT_MS = 10_000;
/** Longer than this without a PONG and Redis counts as down (health check). */
const PING_TIMEOUT_MS = 1_000;

export interface RedisHandle {
  /** The prefix of every key and channel (REDIS_PREFIX). */
  prefix: string;
  /** socket.io's Redis adapter over this handle's pub/sub connections. */
  adapter: ServerOptions['adapter'];
  /** A fresh rate-limit store (express-rate-limit refuses one store shared by two limiters). */
  rateLimitStore(): Store;
  /** Whether Redis answers a PING in time. */
  ping(): Promise<boolean>;
  /** A counter every node shares (key `${prefix}${name}`): read it (null while unset), or add one. Rejects while Redis is away. */
  counter(name: string): SharedCounter;
  /**
   * Closes both connections: at once (`waitMs` 0), or after the commands already sent have been answered (a
   * graceful shutdown: the last events' publishes reach the other nodes), waiting at most `waitMs`.
   */
  close(waitMs?: number): Promise<void>;
}

export interface SharedCounter {
  get(): Promise<number | null>;
  incr(): Promise<number>;
  /** Sets the value (only while the key is unset: `onlyIfUnset`). */
  set(value: number, onlyIfUnset: boolean): Promise<void>;
}

interface CounterClient {
  get(key: string): Promise<string | null>;
  incr(key: string): Promise<number>;
  set(key: string, value: string, opts?: { condition: 'NX' }): Promise<unknown>;
}

function sharedCounter(client: CounterClient, key: string): SharedCounter {
  return {
    get: async () => {
      const v = await client.get(key);
      return v === null ? null : Number(v);
    },
    incr: () => client.incr(key),
    set: async (value, onlyIfUnset) => {
      await client.set(key, String(value), onlyIfUnset ? { condition: 'NX' } : undefined);
    },
  };
}

type AsyncMethod = (...args: unknown[]) => Promise<unknown>;

/**
 * The adapter calls publish/unsubscribe without awaiting them; while Redis is unreachable they reject, and an
 * unhandled rejection would end the process. A lost event is what a watcher's seq check is for (it resyncs).
 */
function swallowRejections(client: object, methods: readonly string[], logger: Logger): void {
  for (const name of methods) {
    const original = Reflect.get(client, name) as AsyncMethod | undefined;
    if (typeof original !== 'function') continue;
    const bound = original.bind(client);
    Reflect.set(client, name, (...args: unknown[]) =>
      bound(...args).catch((err: unknown) => {
        logger.warn({ err, command: name }, 'redis command failed');
        return 0;
      }),
    );
  }
}

/**
 * Connects the command/publish client and the subscriber. Commands are not queued while Redis is away: a
 * rate-limited request then fails at once (500) instead of hanging, and the health check answers 503.
 * Throws when Redis does not answer within `waitMs`: a node without its fan-out must not serve.
 */
export async function connectRedis(url: string, prefix: string, logger: Logger, waitMs = CONNECT_WAIT_MS): Promise<RedisHandle> {
  const [{ createClient }, { createAdapter }, { RedisStore }] = await Promise.all([
    import('redis'),
    import('@socket.io/redis-adapter'),
    import('rate-limit-redis'),
  ]);
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) },
  });
  const sub = client.duplicate();
  let lastLogged = 0;
  const onError = (err: unknown) => {
    // A Redis that is down reports every reconnect attempt: one line every few seconds is enough.
    if (Date.now() - lastLogged < 5_000) return;
    lastLogged = Date.now();
    logger.error({ err }, 'redis connection error');
  };
  client.on('error', onError);
  sub.on('error', onError);
  try {
    await withTimeout(Promise.all([client.connect(), sub.connect()]), waitMs, `Redis ne odgovara na REDIS_URL posle ${waitMs / 1000} s`);
  } catch (err) {
    client.destroy();
    sub.destroy();
    throw err;
  }
  swallowRejections(client, ['publish'], logger);
  swallowRejections(sub, ['subscribe', 'pSubscribe', 'sSubscribe', 'unsubscribe', 'pUnsubscribe', 'sUnsubscribe'], logger);
  let closed = false;
  return {
    prefix,
    adapter: createAdapter(client, sub, { key: `${prefix}socket.io` }),
    rateLimitStore: () => new RedisStore({ prefix: `${prefix}rl:`, sendCommand: (...args: string[]) => client.sendCommand(args) }),
    counter: (name) => sharedCounter(client, `${prefix}${name}`),
    async ping() {
      try {
        return (await withTimeout(client.ping(), PING_TIMEOUT_MS, 'redis ping timeout')) === 'PONG';
      } catch {
        return false;
      }
    },
    async close(waitMs = 0) {
      if (closed) return;
      closed = true;
      if (waitMs > 0 && client.isReady) {
        await withTimeout(Promise.all([client.close(), sub.close()]), waitMs, 'redis close').catch(() => undefined);
      }
      if (client.isOpen) client.destroy();
      if (sub.isOpen) sub.destroy();
    },
  };
}
