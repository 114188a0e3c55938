/**
 * Issue 7 §8: many bidders fire at one auction over HTTP while socket watchers (WebSocket and long-polling)
 * follow it live. There is no socket event that bids, so bids go over HTTP and the sockets watch.
 * Quick: 20 bidders × 25 bids; full (TEST_FULL=1): 200 × 50.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BidPlacedEvent } from '@shared/schemas/bids';
import { startTestServer, type TestServer } from '../support/app';
import { createAuction } from '../support/auctions';
import { actor, auctionRow, eventually, type Actor } from '../support/marketplace';
import { collectEvents, connectSocket, emitWithAck, type TestSocket } from '../support/sockets';
import { FULL, actors, expectGapFree, expectLadder, minFromRefusal, rng } from '../support/reliability-load';
import type { BodyOf } from '../support/contract';

const BIDDERS = FULL ? 200 : 20;
const BIDS_EACH = FULL ? 50 : 25;
const WATCHERS = FULL ? 24 : 6;
const START = 1000;

let t: TestServer;
let seller: Actor;
let bidders: Actor[];

beforeAll(async () => {
  t = await startTestServer({ SOFT_CLOSE_SECONDS: '0' });
  seller = await actor(t, { first_name: 'Prodavac Pod Vatrom' });
  bidders = await actors(t, BIDDERS, 'Licitant');
}, 180_000);
afterAll(async () => {
  await t?.close();
});

interface Shot {
  bidder: number;
  amount: number;
  key: string | null;
  status: number;
  body: BodyOf<'POST', '/api/bids/'>;
  replayed: boolean;
}

function storedBids(auctionId: number) {
  return t.ctx.db
    .selectFrom('bids')
    .select(['id', 'bidder_id', 'amount', 'created_at'])
    .where('auction_id', '=', auctionId)
    .orderBy('id', 'asc')
    .execute();
}

describe(`bids under fire (${BIDDERS} bidders × ${BIDS_EACH} bids, ${WATCHERS} socket watchers)`, () => {
  it('stores exactly the acknowledged bids, on a clean ladder, and every watcher sees them gap-free in order', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: START, title: 'Aukcija pod vatrom' });
    // A watcher follows the contract (docs/socket-contract.md §5): when dropped, it reconnects and re-joins,
    // and continues from the new snapshot's seq. Each connection is one segment that must be gap-free.
    const watchers: { transport: 'websocket' | 'polling'; segments: { socket: TestSocket; seq: number; events: BidPlacedEvent[] }[]; drops: string[] }[] = [];
    let closing = false;
    const follow = async (w: (typeof watchers)[number]): Promise<void> => {
      const socket = await connectSocket(t.url, { transport: w.transport, timeoutMs: 20_000 });
      const events = collectEvents(socket, 'bid:placed');
      socket.on('disconnect', (reason) => {
        if (closing) return;
        w.drops.push(reason);
        void follow(w).catch((err: unknown) => w.drops.push(`reconnect failed: ${String(err)}`));
      });
      const ack = await emitWithAck(socket, 'auction:join', { auction_id: a.id }, 20_000);
      if (!ack.ok) throw new Error('join refused');
      w.segments.push({ socket, seq: ack.seq, events });
    };
    for (let i = 0; i < WATCHERS; i++) {
      const w = { transport: i % 3 === 2 ? ('polling' as const) : ('websocket' as const), segments: [], drops: [] };
      watchers.push(w);
      await follow(w);
    }
    try {
      const shots: Shot[] = [];
      const send = async (who: Actor, amount: number, key: string | null) => {
        const res = await who.api.post('/api/bids/', { auction_item_id: a.id, amount }, key ? { headers: { 'idempotency-key': key } } : {});
        const shot = { bidder: who.user.id, amount, key, status: res.status, body: res.body, replayed: res.headers.get('idempotent-replayed') === 'true' };
        shots.push(shot);
        return shot;
      };

      const duplicatePairs: [Shot, Shot][] = [];
      const t0 = Date.now();
      await Promise.all(
        bidders.map(async (who, b) => {
          const rand = rng(7919 * (b + 1));
          let known = START;
          for (let i = 0; i < BIDS_EACH; i++) {
            // Mostly the next step or a little more; sometimes a stale or off-grid amount.
            const r = rand();
            const amount = r < 0.1 ? known : known + 10 * (1 + Math.floor(rand() * 3)) + (r > 0.95 ? 3 : 0);
            let shot: Shot;
            if (i % 5 === 4) {
              // A client that retries at once (double click, flaky network): same Idempotency-Key twice, in parallel.
              const key = `k-${who.user.id}-${i}`;
              const pair = await Promise.all([send(who, amount, key), send(who, amount, key)]);
              duplicatePairs.push(pair);
              shot = pair[0];
            } else {
              shot = await send(who, amount, i % 2 ? `k-${who.user.id}-${i}` : null);
            }
            if (shot.status === 201) known = shot.body.current_price;
            else known = Math.max(known, (minFromRefusal(shot.body) ?? known + 10) - 10);
          }
        }),
      );
      const elapsed = Date.now() - t0;

      // Every answer is an acceptance or a "too low" with its minimum; nothing else (no 5xx, no 429).
      const statuses = new Map<number, number>();
      for (const s of shots) statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1);
      expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([201]));
      expect([...statuses.keys()].filter((s) => s !== 201 && s !== 400)).toEqual([]);
      for (const s of shots.filter((x) => x.status === 400)) expect(minFromRefusal(s.body)).not.toBeNull();

      // The duplicates: the same answer twice (status and body), exactly one of them a replay.
      for (const [x, y] of duplicatePairs) {
        expect(y.status).toBe(x.status);
        expect(y.body).toEqual(x.body);
        expect([x.replayed, y.replayed].filter(Boolean)).toHaveLength(1);
      }

      // Acknowledged (201) = stored, as a set, and nothing else is stored.
      const stored = await storedBids(a.id);
      const acked = new Map<number, Shot>();
      for (const s of shots.filter((x) => x.status === 201)) acked.set(s.body.id, s);
      expect(stored.map((b) => b.id)).toEqual([...acked.keys()].sort((x, y) => x - y));
      for (const b of stored) expect([b.bidder_id, b.amount]).toEqual([acked.get(b.id)!.bidder, acked.get(b.id)!.amount]);
      expect(stored.length).toBeGreaterThan(BIDDERS);

      expectLadder(stored, START);
      const row = await auctionRow(t, a.id);
      expect(row.current_price).toBe(stored[stored.length - 1].amount);
      expect(row.current_price).toBe(Math.max(...stored.map((b) => b.amount)));
      expect(row.bid_count).toBe(stored.length);
      expect(row.seq).toBe(a.seq + stored.length);

      // One stored answer per key used, and a key's 201 is exactly one bid.
      const keys = await t.ctx.db.selectFrom('idempotency_keys').selectAll().execute();
      expect(keys).toHaveLength(new Set(shots.filter((s) => s.key).map((s) => `${s.bidder}:${s.key}`)).size);
      const keyedBids = keys.filter((k) => k.status === 201).map((k) => JSON.parse(k.body).id as number);
      expect(new Set(keyedBids).size).toBe(keyedBids.length);
      for (const id of keyedBids) expect(acked.has(id)).toBe(true);

      // Every watcher got every bid, seq by seq, in order (per connection), and ends at the final state.
      const finalSeq = a.seq + stored.length;
      const reached = (w: (typeof watchers)[number]) => {
        const last = w.segments[w.segments.length - 1];
        return last && last.seq + last.events.length >= finalSeq;
      };
      await eventually(() => watchers.every(reached), 30_000).catch(() => undefined);
      const behind = watchers.map((w, i) => `#${i} ${w.transport}: drops [${w.drops.join(', ')}], reached ${reached(w)}`).filter((line) => !line.endsWith('true'));
      expect(behind).toEqual([]);
      for (const w of watchers) {
        for (const seg of w.segments) expectGapFree(seg.events, seg.seq, stored.slice(seg.seq - a.seq, seg.seq - a.seq + seg.events.length));
      }
      // WebSocket watchers are never dropped; a long-polling one may be (ping timeout on a starved machine) and then resyncs.
      expect(watchers.filter((w) => w.transport === 'websocket' && w.drops.length).map((w) => w.drops)).toEqual([]);
      const drops = watchers.reduce((n, w) => n + w.drops.length, 0);
      console.info(
        `[reliability] bids under fire: ${shots.length} requests (${duplicatePairs.length} duplicate pairs) in ${elapsed} ms, ` +
          `${stored.length} accepted, ${shots.filter((s) => s.status === 400).length} refused, final ${row.current_price} din, ${watchers.length} watchers gap-free (${drops} long-polling drops, resynced)`,
      );
    } finally {
      closing = true;
      for (const w of watchers) for (const seg of w.segments) seg.socket.close();
    }
  }, 300_000);
});
