/**
 * The version a cache checks its entries against (issue 30: the list cache, features/auctions/list-cache.ts; the
 * session cache, features/accounts/session-cache.ts). Every entry carries the version read *before* its SQL ran;
 * a read serves an entry only when the version it reads now is the same. The writer bumps the version after its
 * commit and before its answer: one node: a counter in this process; several nodes (REDIS_URL): a Redis counter
 * (INCR awaited by the writer, GET by the reader: one round trip instead of the cached SQL). A pub/sub message
 * would arrive after the answer.
 */
import type { Logger } from 'pino';
import type { MaybeAsync } from './maybe-async';
import type { RedisHandle } from './redis';

/** Read before a cached read's SQL, bumped after a committed change. null: unknown (do not cache). */
export interface CacheVersion {
  current(): MaybeAsync<number | null>;
  bump(): MaybeAsync<void>;
}

export function localVersion(): CacheVersion {
  let n = 0;
  return { current: () => n, bump: () => void n++ };
}

/** A counter's first value: random, so a counter lost with Redis (restarted empty) does not take values it had. */
const randomStart = () => Math.floor(Math.random() * 2 ** 40) + 1;

/**
 * Every node shares one Redis counter `name`. A failed read serves uncached; a failed bump is logged. An unset
 * counter (new, or lost with Redis) reads as unknown until a node has set it to a random start, and an INCR
 * that finds it unset (answers 1) sets one too: entries held from before the loss never match again.
 */
export function sharedVersion(redis: RedisHandle, name: string, logger: Logger): CacheVersion {
  const counter = redis.counter(name);
  const warn = (err: unknown) => logger.warn({ err, counter: name }, 'cache: could not bump the shared version');
  const failed = () => null;
  return {
    current: () =>
      counter.get().then((v) => (v === null ? counter.set(randomStart(), true).then(failed, failed) : v), failed),
    bump: () => counter.incr().then((n) => (n === 1 ? counter.set(randomStart(), false) : undefined)).then(() => undefined, warn),
  };
}

/** sharedVersion with Redis (several nodes), else localVersion. */
export function cacheVersion(redis: RedisHandle | undefined, name: string, logger: Logger): CacheVersion {
  return redis ? sharedVersion(redis, name, logger) : localVersion();
}

/**
 * The version a reader just read, checked against the highest it has seen: a lower one means the shared counter
 * was reset (Redis flushed), and older entries could carry it again, so `clear` drops them all.
 */
export function versionWatch(clear: () => void): (v: number | null) => void {
  let highest = -1;
  return (v) => {
    if (v === null) return;
    if (v < highest) clear();
    highest = Math.max(highest, v);
  };
}
