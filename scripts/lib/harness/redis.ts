/**
 * Redis for several-node tests and bench rows: every run writes under a key prefix of its own (REDIS_PREFIX)
 * and deletes that prefix's keys afterwards. `redis` is imported only when one of these is called.
 */

/** The Redis on this project's machines, when TEST_REDIS_URL (or BENCH_REDIS_URL) is unset. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Fails with the command to run when nothing answers at `url`: the suites that need Redis never skip. */
export async function requireRedis(url: string): Promise<void> {
  const { createClient } = await import('redis');
  const client = createClient({ url, socket: { connectTimeout: 2000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    throw new Error(
      `Redis does not answer at ${url} (${(err as Error).message}). The multi-node tests need it: ` +
        'start one with `redis-server --daemonize yes` (Debian: `apt-get install -y redis-server`), or point TEST_REDIS_URL at one.',
    );
  } finally {
    if (client.isOpen) client.destroy();
  }
}

/** Deletes every key under `prefix` (rate-limit counters; the adapter's pub/sub channels leave no keys). */
export async function dropRedisPrefix(prefix: string, url: string): Promise<void> {
  const { createClient } = await import('redis');
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (keys.length) await client.del(keys);
    }
  } finally {
    client.destroy();
  }
}
