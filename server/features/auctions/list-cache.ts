/**
 * The public lists' response cache (issue 30; docs/performance.md, "B3 — the list cache"). It keeps the live
 * promise: a list read that starts after a bid's 201, a delete's 204, a close (or any other change announced by
 * a DomainEvent that names an auction) shows the new state, on this node or another.
 *
 * - Only what no caller changes is cached: answers to callers without a user (`req.user` unset). Every
 *   caller-dependent field (`watched`, the seller's `reserve_price`, whatever a later branch adds by viewer) is
 *   computed from the user, so a logged-in caller is never served from it and never fills it.
 * - Freshness by version (lib/version.ts): every entry carries the list version read *before* its SQL ran; a read
 *   serves an entry only when the version it reads now is the same. The writer bumps the version after the
 *   commit and before its answer (the unit of work awaits the sink; this listener runs first, before the sockets
 *   tell anyone): one node: a counter in this process; several nodes (REDIS_URL): the Redis counter
 *   `lists:version`.
 * - What no event announces (time passing an end_date, a new auction or image before those have events) lives
 *   at most ENTRY_TTL_MS, and never past the earliest end_date among the entry's cards.
 * - The JSON is stored once as bytes, compressed (br or gzip, by Accept-Encoding) at most once per entry.
 */
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import type { DomainEvent } from '../../events';
import { versionWatch, type CacheVersion } from '../../lib/version';

/** An entry lives at most this long (changes that no event announces). */
export const ENTRY_TTL_MS = 1000;
/** All entries together (JSON and its compressed forms). */
const MAX_BYTES = 8 * 1024 * 1024;
/** A bigger answer (a plain list of up to 1,000 cards) is not cached. */
const MAX_ENTRY_BYTES = 256 * 1024;
/** Smaller JSON is sent as it is. */
const COMPRESS_FROM = 1024;

/** Event types that change what a list shows, besides any other event that names an auction (namesAuction). */
export const LIST_EVENTS: ReadonlySet<string> = new Set([
  'bid:placed',
  'auction:closed',
  'auction:deleted',
  'auction:updated',
  'auction:created',
  // A blocked seller's auctions leave the public lists; an unblocked one's come back.
  'session:ended',
  'lists:changed',
]);
/** Events that name an auction but change no card (lists show no comment counts). */
const NOT_IN_LISTS: ReadonlySet<string> = new Set(['comment:created', 'comment:deleted']);

function namesAuction(e: DomainEvent): boolean {
  const payload = (e as { payload?: { auction_id?: unknown } }).payload;
  return typeof payload?.auction_id === 'number';
}

/** Whether a committed event may change a list: listed, or naming an auction and not known to leave cards alone. */
export function changesLists(e: DomainEvent): boolean {
  return LIST_EVENTS.has(e.type) || (namesAuction(e) && !NOT_IN_LISTS.has(e.type));
}

interface Entry {
  version: number;
  expires: number;
  json: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  bytes: number;
}

type Encoding = 'br' | 'gzip';

export interface ListCache {
  /** Answers `req` from the cache when it may, else with `compute()` (stored when the caller is anonymous). */
  send(req: Request, res: Response, compute: () => Promise<unknown>): Promise<void>;
  /**
   * Answers a visitor's read from a fresh entry, after `prepare(res)` (the headers the API's stack would add),
   * and resolves true; false when there is none (the version it read rides on `res.locals` to send()).
   */
  serveCached(req: Request, res: Response, prepare: (res: Response) => void): Promise<boolean>;
}

/** The version a visitor's read found before its cache miss (serveCached), still read before its SQL runs. */
const VERSION_READ = 'listVersionRead';

/** The earliest end_date among the open cards of a list answer (an array or a page), or Infinity. */
function earliestEnd(body: unknown): number {
  const cards = (Array.isArray(body) ? body : (body as { results?: unknown[] }).results) ?? [];
  let min = Infinity;
  for (const c of cards as { end_date?: string; status?: string }[]) {
    if (c.status === 'active' && c.end_date) min = Math.min(min, Date.parse(c.end_date));
  }
  return min;
}

function compressed(entry: Entry, enc: Encoding): Buffer {
  if (enc === 'br') {
    entry.br ??= zlib.brotliCompressSync(entry.json, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: entry.json.length },
    });
    return entry.br;
  }
  entry.gzip ??= zlib.gzipSync(entry.json, { level: 6 });
  return entry.gzip;
}

function write(req: Request, res: Response, entry: Entry): number {
  const before = (entry.br?.length ?? 0) + (entry.gzip?.length ?? 0);
  const enc = entry.json.length >= COMPRESS_FROM ? (req.acceptsEncodings('br', 'gzip') as Encoding | false) : false;
  const body = enc ? compressed(entry, enc) : entry.json;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Vary', 'Accept-Encoding');
  if (enc) res.setHeader('Content-Encoding', enc);
  res.setHeader('Content-Length', body.length);
  res.end(body);
  return (entry.br?.length ?? 0) + (entry.gzip?.length ?? 0) - before;
}

/** Entries by URL, all together at most MAX_BYTES (the oldest stored go first). */
function entryStore() {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  return {
    get: (key: string) => entries.get(key),
    clear() {
      entries.clear();
      bytes = 0;
    },
    store(key: string, entry: Entry) {
      const old = entries.get(key);
      if (old) bytes -= old.bytes;
      entries.delete(key);
      entries.set(key, entry);
      bytes += entry.bytes;
      for (const [k, e] of entries) {
        if (bytes <= MAX_BYTES) break;
        entries.delete(k);
        bytes -= e.bytes;
      }
    },
    /** Answers `req` with `entry`, counting the compressed forms it may have gained. */
    serve(req: Request, res: Response, entry: Entry) {
      const grew = write(req, res, entry);
      entry.bytes += grew;
      if (entries.get(req.originalUrl) === entry) bytes += grew;
    },
  };
}

/**
 * The cache of one app: subscribes to its committed events (first, so the version moves before any socket
 * event or answer goes out). `version`: lib/version.ts cacheVersion(ctx.redis, 'lists:version', …).
 */
export function createListCache(ctx: Pick<AppContext, 'events'>, version: CacheVersion): ListCache {
  const entries = entryStore();
  const seen = versionWatch(() => entries.clear());
  ctx.events.subscribe(
    (events) => {
      if (!events.some(changesLists)) return;
      // This node's entries go at once (also when the shared bump fails); other nodes see the new version.
      entries.clear();
      return version.bump();
    },
    { first: true },
  );
  /** The version now (`res.locals` keeps one read earlier in this request) and the fresh entry for `req`, if any. */
  const lookup = async (req: Request, res: Response) => {
    const locals = res.locals as { [VERSION_READ]?: number | null };
    const v = VERSION_READ in locals ? (locals[VERSION_READ] ?? null) : await version.current();
    locals[VERSION_READ] = v;
    seen(v);
    const hit = entries.get(req.originalUrl);
    return { v, hit: hit && hit.version === v && Date.now() < hit.expires ? hit : undefined };
  };
  return {
    async serveCached(req, res, prepare) {
      const { hit } = await lookup(req, res);
      if (!hit) return false;
      prepare(res);
      entries.serve(req, res, hit);
      return true;
    },
    async send(req, res, compute) {
      if (req.user) {
        res.json(await compute());
        return;
      }
      const { v, hit } = await lookup(req, res);
      if (hit) return entries.serve(req, res, hit);
      const now = Date.now();
      const body = await compute();
      const json = Buffer.from(JSON.stringify(body));
      const entry: Entry = { version: v ?? -1, expires: Math.min(now + ENTRY_TTL_MS, earliestEnd(body)), json, bytes: 0 };
      write(req, res, entry);
      entry.bytes = json.length + (entry.br?.length ?? 0) + (entry.gzip?.length ?? 0);
      if (v !== null && json.length <= MAX_ENTRY_BYTES) entries.store(req.originalUrl, entry);
    },
  };
}
