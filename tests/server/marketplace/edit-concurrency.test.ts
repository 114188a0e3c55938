/**
 * An edit and a bid arriving together on two nodes (issue 26): one PostgreSQL database and one Redis (in the
 * SQLite run too), the edit sent to one node and the bid to the other, on many auctions at once. The auction's
 * row lock decides: an edit first raises the price, so the bid is refused as too low; a bid first makes the edit
 * not_editable. An edit never lands after a bid, and a watcher on the bid's node sees exactly the winner's event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser, loginAs } from '../../support/factories';
import type { ApiClient } from '../../support/http';
import { auctionRow, eventually } from '../../support/marketplace';
import { connectSocket } from '../../support/sockets';
import { dropRedisPrefix, requireRedis, TEST_REDIS_URL, uniqueRedisPrefix } from '../../support/multinode';
import { createTestDatabase, databaseUrl, dropTestDatabase, onPostgres } from '../../support/pg';
import { auctionRoom } from '@shared/socket-events';

const ROUNDS = 16;

describe('an edit and a bid together on two nodes (one PostgreSQL database and one Redis)', () => {
  const nodes: TestServer[] = [];
  let dbName = '';
  let prefix = '';
  let sellerId = 0;
  let sellerApi: ApiClient;
  let bidderApi: ApiClient;

  beforeAll(async () => {
    await requireRedis();
    dbName = await createTestDatabase({ unmigrated: !onPostgres });
    prefix = uniqueRedisPrefix();
    const env = { DATABASE_URL: databaseUrl(dbName), REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, SOFT_CLOSE_SECONDS: '0' };
    for (let i = 0; i < 2; i++) nodes.push(await startTestServer(env));
    const seller = await createUser(nodes[0]!.ctx, { first_name: 'Prodavac Izmena' });
    const bidder = await createUser(nodes[0]!.ctx, { first_name: 'Ponuđač' });
    sellerId = seller.id;
    sellerApi = await loginAs(nodes[0]!.url, seller);
    bidderApi = await loginAs(nodes[1]!.url, bidder);
  }, 120_000);
  afterAll(async () => {
    for (const n of nodes) await n.close();
    if (prefix) await dropRedisPrefix(prefix);
    if (dbName) await dropTestDatabase(dbName);
  });

  it('one wins each race; an edit never lands after a bid; the watcher sees only the winner', async () => {
    const node = nodes[0]!;
    const auctions = await Promise.all(Array.from({ length: ROUNDS }, () => createAuction(node.ctx, sellerId, { starting_price: 1000 })));
    const socket = await connectSocket(nodes[1]!.url);
    await nodes[1]!.ctx.realtime.io.in(socket.id!).socketsJoin(auctions.map((a) => auctionRoom(a.id)));
    const seen = new Map<number, { event: string; seq: number }[]>();
    for (const event of ['bid:placed', 'auction:updated'] as const) {
      (socket as unknown as { on(e: string, l: (p: { auction_id: number; seq: number }) => void): void }).on(event, (p) => {
        seen.set(p.auction_id, [...(seen.get(p.auction_id) ?? []), { event, seq: p.seq }]);
      });
    }
    try {
      const later = <T,>(ms: number, f: () => Promise<T>) => new Promise<T>((resolve, reject) => setTimeout(() => f().then(resolve, reject), ms));
      const answers = await Promise.all(
        auctions.map(async (a, i) => {
          // A third at the same moment, a third each with one side 15 ms ahead: both orders happen.
          const [edit, bid] = await Promise.all([
            later(i % 3 === 1 ? 0 : i % 3 === 2 ? 15 : 0, () => sellerApi.patch(`/api/auctions/${a.id}/`, { current_price: 2000, title: `Izmenjeno ${i}` })),
            later(i % 3 === 1 ? 15 : 0, () => bidderApi.post('/api/bids/', { auction_item_id: a.id, amount: 1010 })),
          ]);
          return { a, edit, bid };
        }),
      );
      const tally = { edit: 0, bid: 0 };
      for (const { a, edit, bid } of answers) {
        const row = await auctionRow(node, a.id);
        if (edit.status === 200) {
          tally.edit += 1;
          expect(bid.status).toBe(400);
          expect(row).toMatchObject({ title: `Izmenjeno ${auctions.indexOf(a)}`, bid_count: 0, current_price: 2000, seq: a.seq + 1 });
          await eventually(() => seen.get(a.id)?.length === 1);
          expect(seen.get(a.id)).toEqual([{ event: 'auction:updated', seq: a.seq + 1 }]);
        } else {
          tally.bid += 1;
          expect(edit.body).toMatchObject({ code: 'not_editable' });
          expect(bid.status).toBe(201);
          expect(row).toMatchObject({ title: a.title, bid_count: 1, current_price: 1010, starting_price: 1000, seq: a.seq + 1 });
          await eventually(() => seen.get(a.id)?.length === 1);
          expect(seen.get(a.id)).toEqual([{ event: 'bid:placed', seq: a.seq + 1 }]);
        }
      }
      expect(tally.edit + tally.bid).toBe(ROUNDS);
      // With one side 15 ms ahead in two thirds of the rounds, both orders happen.
      expect(tally.edit).toBeGreaterThan(0);
      expect(tally.bid).toBeGreaterThan(0);
    } finally {
      socket.disconnect();
    }
  }, 60_000);
});
