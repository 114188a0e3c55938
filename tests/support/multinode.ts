/**
 * Several nodes in one test: app instances (createApp) sharing one DATA_DIR (SQLite in WAL mode, fine for
 * the fan-out on one machine) and one Redis under a key prefix of their own, removed afterwards.
 */
import crypto from 'node:crypto';
import { startTestServer, tempDataDir, type TestServer } from './app';

/** The Redis the multi-node suites use: TEST_REDIS_URL, else the one on this project's machines. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A prefix no other test (worker, run) uses. */
export function uniqueRedisPrefix(): string {
  return `aukcije-test:${process.pid}:${crypto.randomBytes(6).toString('hex')}:`;
}

/**
 * Fails with the command to run when nothing answers at TEST_REDIS_URL: these suites never skip.
 * Call it first in a suite's beforeAll.
 */
export async function requireRedis(url = TEST_REDIS_URL): Promise<void> {
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
export async function dropRedisPrefix(prefix: string, url = TEST_REDIS_URL): Promise<void> {
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

export interface Cluster {
  nodes: TestServer[];
  prefix: string;
  dataDir: string;
  /** Closes every node, then removes the prefix's keys. */
  close(): Promise<void>;
}

/** `count` nodes on one DATA_DIR and one Redis prefix; `env` goes to every node. */
export async function startCluster(count = 2, env: Record<string, string> = {}): Promise<Cluster> {
  await requireRedis();
  const dataDir = tempDataDir('aukcije-cluster-');
  const prefix = uniqueRedisPrefix();
  const nodes: TestServer[] = [];
  const close = async () => {
    for (const n of nodes) await n.close();
    await dropRedisPrefix(prefix);
  };
  try {
    // One after the other: the first migrates the shared file, the next finds it done.
    for (let i = 0; i < count; i++) nodes.push(await startTestServer({ REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, ...env }, { dataDir }));
  } catch (err) {
    await close();
    throw err;
  }
  return { nodes, prefix, dataDir, close };
}
