/**
 * The visitors' join snapshots (issue 30, B9): 10,000 sockets that join one auction read it once, not 10,000
 * times. It keeps the rooms' rule (server/realtime/rooms.ts: join, then read): a snapshot's seq describes exactly
 * the detail it carries, and a socket never misses an event with a larger seq.
 *
 * - Only a visitor's snapshot is cached (`viewerId` unset): every caller-dependent field (`watched`,
 *   `viewer_blocked`, the seller's `reserve_price`, whatever a later branch adds by viewer) is computed from the
 *   viewer, so a logged-in socket is never served from it and never fills it.
 * - Freshness: every committed event that names an auction (its seq moved: a bid, a comment, a close, an edit, a
 *   delete) drops that auction's entry in the first subscriber of the events, so before any socket hears of it and
 *   before the writer answers. A socket served an entry is already in the room (it joined first): every event
 *   after the entry's seq has not gone out yet, and reaches it.
 *   A read whose SQL overlapped an event published on this node is not stored, so no entry predates an event
 *   this node published. Several nodes (REDIS_URL): also a Redis counter bumped by those events (awaited by the
 *   writer, before the room hears the event on any node); an entry is served only while the counter still reads
 *   what it read before its SQL.
 * - What no event announces (the watch count, the seller's name and ratings) lives at most ENTRY_TTL_MS; an open
 *   auction's entry never outlives its end_date (its status and buy-now price change then).
 */
import type { AppContext } from '../../context';
import type { DomainEvent } from '../../events';
import type { AuctionDetail } from '@shared/schemas/auctions';
import { ENTRY_TTL_MS } from './list-cache';
import { sharedVersion, versionWatch } from '../../lib/version';

/** Auctions whose snapshots are kept at most (the least recently stored go first). */
const MAX_ENTRIES = 1000;

export interface Snapshot {
  seq: number;
  auction: AuctionDetail;
}

interface Entry {
  version: number;
  expires: number;
  snap: Snapshot;
}

/** The auctions a committed event names (their seq or what their detail shows moved). */
export function auctionsNamed(e: DomainEvent): number[] {
  if (e.type === 'auction:relisted') return [e.auctionId, e.relistedFrom];
  const id = (e as { payload?: { auction_id?: unknown } }).payload?.auction_id;
  return typeof id === 'number' ? [id] : [];
}

export interface SnapshotCache {
  /** A visitor's snapshot from the cache, else `load()`'s (stored when it may be); a viewer's is always loaded. */
  snapshot(auctionId: number, viewerId: number | undefined, load: () => Promise<Snapshot | undefined>): Promise<Snapshot | undefined>;
}

/** The cache of one app, on its committed events; its version is shared through Redis when the app has it. */
export function createSnapshotCache(ctx: Pick<AppContext, 'events' | 'redis' | 'logger'>): SnapshotCache {
  const shared = ctx.redis ? sharedVersion(ctx.redis, 'snapshots:version', ctx.logger) : null;
  const entries = new Map<number, Entry>();
  /** Batches of events naming an auction that this node published. */
  let epoch = 0;
  const seen = versionWatch(() => entries.clear());
  ctx.events.subscribe(
    (events) => {
      let named = false;
      for (const e of events) {
        for (const id of auctionsNamed(e)) {
          entries.delete(id);
          named = true;
        }
      }
      if (!named) return;
      epoch += 1;
      return shared?.bump();
    },
    { first: true },
  );
  return {
    async snapshot(auctionId, viewerId, load) {
      if (viewerId !== undefined) return load();
      const e = epoch;
      const v = shared ? await shared.current() : e;
      if (v === null) return load();
      if (shared) seen(v);
      const hit = entries.get(auctionId);
      // One node: an entry that lives was stored with no event in between and has seen none since (it
      // would be gone). Several nodes: the other nodes' events show only in the counter.
      if (hit && Date.now() < hit.expires && (!shared || hit.version === v)) return hit.snap;
      const readAt = Date.now();
      const snap = await load();
      // An event published here meanwhile (also when its shared bump fails): the read may predate it.
      if (!snap || epoch !== e) return snap;
      const { auction } = snap;
      const end = auction.status === 'active' ? Date.parse(auction.end_date) : Infinity;
      entries.delete(auctionId);
      entries.set(auctionId, { version: v, expires: Math.min(readAt + ENTRY_TTL_MS, end), snap });
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      return snap;
    },
  };
}
