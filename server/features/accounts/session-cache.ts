/**
 * The session cache (issue 30, B1; docs/performance.md, "B1 — the session cache"): what every request with a
 * session cookie read from the database, the session row (express-session, by sid) and the user passport
 * deserializes (by id), held in this process.
 *
 * - Freshness by version (lib/version.ts, as the list cache): every entry carries the version read *before* its
 *   SQL ran, and is served only while the version read now is the same. The version moves after every change
 *   that may end or alter what is held, before that change's answer: the store's own writes (a session saved,
 *   destroyed, or all of a user's ended: login, logout, password change or reset, block, a Google takeover) and
 *   the committed `session:ended` and `user:changed` events (this listener runs first). One node: a counter in
 *   this process; several nodes (REDIS_URL): the Redis counter `sessions:version`, so a logout's, block's or
 *   profile edit's answer on one node is followed by every node's next request reading the rows again.
 * - This node's entries go at once on such a change (also when the shared bump fails), and whenever the shared
 *   version cannot be read (Redis away: other nodes' bumps may be failing meanwhile); until it can, nothing is held.
 * - A change no event announces (a row written by hand) is seen at most ENTRY_TTL_MS later; an entry is never
 *   served past its session's expiry. At most MAX_ENTRIES of each kind, the oldest dropped first.
 */
import type { AppContext } from '../../context';
import type { DbOrTx, User } from '../../db/types';
import type { DomainEvent } from '../../events';
import { andThen, type MaybeAsync } from '../../lib/maybe-async';
import { versionWatch, type CacheVersion } from '../../lib/version';
import { findUserById } from './accounts.repository';
import type { SessionsRepository, StoredSession } from './sessions.repository';

/** An entry lives at most this long (rows written past the app). */
export const ENTRY_TTL_MS = 5_000;
/** Sessions held, and users held. */
const MAX_ENTRIES = 20_000;

/** Events after which a held session or user may be wrong. */
const SESSION_EVENTS: ReadonlySet<string> = new Set(['session:ended', 'user:changed']);

interface Entry<T> {
  version: number;
  /** Date.now() past which the entry is not served. */
  until: number;
  value: T;
}

export interface SessionCache {
  /** `repo` with findSession served from the cache, and every write to sessions moving the version. */
  sessions(repo: SessionsRepository): SessionsRepository;
  /** The user row by id (passport's deserialize): a copy, so a caller changing it changes no entry. */
  findUser(db: DbOrTx, id: number): MaybeAsync<User | undefined>;
}

/** A bounded map, oldest entry dropped first. */
function bounded<K, T>() {
  const map = new Map<K, Entry<T>>();
  return {
    map,
    put(key: K, entry: Entry<T>) {
      map.delete(key);
      map.set(key, entry);
      if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value as K);
    },
  };
}

/**
 * The cache of one app: subscribes to its committed events first. `version`: lib/version.ts
 * cacheVersion(ctx.redis, 'sessions:version', …).
 */
export function createSessionCache(ctx: Pick<AppContext, 'events'>, version: CacheVersion): SessionCache {
  const sessions = bounded<string, StoredSession>();
  const users = bounded<number, User>();
  const clear = () => {
    sessions.map.clear();
    users.map.clear();
  };
  const seen = versionWatch(clear);
  const invalidate = (): MaybeAsync<void> => {
    clear();
    return version.bump();
  };
  ctx.events.subscribe((events: readonly DomainEvent[]) => (events.some((e) => SESSION_EVENTS.has(e.type)) ? invalidate() : undefined), { first: true });

  /** `read()` unless a fresh entry of `key` is held; what it finds is held under the version read before it. */
  function cached<K, T>(store: ReturnType<typeof bounded<K, T>>, key: K, valid: (value: T) => boolean, read: () => MaybeAsync<T | undefined>): MaybeAsync<T | undefined> {
    return andThen(version.current(), (v) => {
      // Unknown (Redis away): a bump may be failing meanwhile, so nothing held now is trusted again.
      if (v === null) clear();
      seen(v);
      const hit = store.map.get(key);
      const now = Date.now();
      if (hit && hit.version === v && now < hit.until && valid(hit.value)) return hit.value;
      return andThen(read(), (value) => {
        if (value && v !== null) store.put(key, { version: v, until: now + ENTRY_TTL_MS, value });
        return value;
      });
    });
  }

  return {
    sessions: (repo) => ({
      ...repo,
      findSession: (sid, nowMs) => cached(sessions, sid, (row) => row.expires > nowMs, () => repo.findSession(sid, nowMs)),
      upsertSession: (row) => andThen(repo.upsertSession(row), invalidate),
      deleteSession: (sid) => andThen(repo.deleteSession(sid), invalidate),
      deleteUserSessions: (userId, exceptSid) => andThen(repo.deleteUserSessions(userId, exceptSid), (n) => andThen(invalidate(), () => n)),
      extendSession: (sid, expires, storedBefore) =>
        andThen(repo.extendSession(sid, expires, storedBefore), () => {
          // The stored expiry is now at least storedBefore and at most `expires`: the held row says `expires`, so
          // the store's touch() skips the statement for the next minute (store.ts, TOUCH_SLACK_MS).
          const held = sessions.map.get(sid);
          if (held) held.value = { ...held.value, expires };
        }),
    }),
    findUser: (db, id) => andThen(cached(users, id, () => true, () => findUserById(db, id)), (user) => user && { ...user }),
  };
}
