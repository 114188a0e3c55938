/**
 * Several nodes in one test: app instances (createApp) sharing one DATA_DIR (SQLite in WAL mode, fine for
 * the fan-out on one machine) and one Redis under a key prefix of their own, removed afterwards.
 */
import crypto from 'node:crypto';
import { DEFAULT_REDIS_URL, dropRedisPrefix as dropRedisPrefixAt, requireRedis as requireRedisAt } from '../../scripts/lib/harness/redis';
import { startTestServer, tempDataDir, type TestServer } from './app';

/** The Redis the multi-node suites use: TEST_REDIS_URL, else the one on this project's machines. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? DEFAULT_REDIS_URL;

/** A prefix no other test (worker, run) uses. */
export function uniqueRedisPrefix(): string {
  return `aukcije-test:${process.pid}:${crypto.randomBytes(6).toString('hex')}:`;
}

/** Fails with the command to run when nothing answers at TEST_REDIS_URL: call it first in a suite's beforeAll. */
export function requireRedis(url = TEST_REDIS_URL): Promise<void> {
  return requireRedisAt(url);
}

/** Deletes every key under `prefix`. */
export function dropRedisPrefix(prefix: string, url = TEST_REDIS_URL): Promise<void> {
  return dropRedisPrefixAt(prefix, url);
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
