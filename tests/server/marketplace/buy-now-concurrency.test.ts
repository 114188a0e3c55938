/**
 * "Kupi odmah" arriving together with other requests (issue 25): a bid and a buy-now, two buy-nows, a maximum
 * and a buy-now, sent at the same moment on many auctions at once. Whichever the server takes first decides:
 * a buy-now first ends the auction and everything after it is refused as ended; a bid or maximum first takes the
 * option away and the auction goes on. Afterwards the history, the auction row, the watchers' events (every seq
 * once, `auction:closed` once) and the notifications (won / auction_ended exactly once) agree with that order.
 * On one node (SQLite, or PostgreSQL under `node scripts/test-pg.mjs`) and on two nodes (one PostgreSQL
 * database, one Redis; requests alternate between the nodes, the watcher on the other).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser, loginAs } from '../../support/factories';
import type { ApiClient } from '../../support/http';
import { auctionRow, eventually, notificationsOf, type Actor } from '../../support/marketplace';
import { connectSocket, type TestSocket } from '../../support/sockets';
import { putMax } from '../../support/auto-bid-world';
import { dropRedisPrefix, requireRedis, TEST_REDIS_URL, uniqueRedisPrefix } from '../../support/multinode';
import { createTestDatabase, databaseUrl, dropTestDatabase, onPostgres } from '../../support/pg';
import { auctionRoom } from '@shared/socket-events';

const ROUNDS = 12;
const START = 1000;
const BUY = 6000;

type Kind = 'bid' | 'max' | 'buy';

interface World {
  nodes: TestServer[];
  seller: Actor;
  /** Two members per node: the first pair sends the first request of a round, the second the other. */
  first: ApiClient[];
  second: ApiClient[];
  firstIds: number[];
  secondIds: number[];
}

/** What a race's side was answered. */
type Answer = { status: number; body: unknown };

function send(api: ApiClient, kind: Kind, auctionId: number): Promise<Answer> {
  if (kind === 'buy') return api.post(`/api/auctions/${auctionId}/buy-now/`);
  if (kind === 'max') return putMax(api, auctionId, 3000);
  return api.post('/api/bids/', { auction_item_id: auctionId, amount: START + 10 });
}

/** Watches `ids` on `node` (server-side join, as tests/support/marketplace.ts watchAuction). */
async function watcherOn(node: TestServer, ids: number[]): Promise<{ socket: TestSocket; events: Map<number, { event: string; seq: number; outcome?: string }[]> }> {
  const socket = await connectSocket(node.url);
  await node.ctx.realtime.io.in(socket.id!).socketsJoin(ids.map(auctionRoom));
  const events = new Map<number, { event: string; seq: number; outcome?: string }[]>();
  for (const event of ['bid:placed', 'auction:closed'] as const) {
    (socket as unknown as { on(e: string, l: (p: { auction_id: number; seq: number; outcome?: string }) => void): void }).on(event, (p) => {
      events.set(p.auction_id, [...(events.get(p.auction_id) ?? []), { event, seq: p.seq, outcome: p.outcome }]);
    });
  }
  return { socket, events };
}

async function race(w: World, kinds: [Kind, Kind]) {
  const node = w.nodes[0]!;
  const auctions = await Promise.all(Array.from({ length: ROUNDS }, () => createAuction(node.ctx, w.seller.user.id, { starting_price: START, buy_now_price: BUY, reserve_price: 5000 })));
  const ids = auctions.map((a) => a.id);
  const watcher = await watcherOn(w.nodes[w.nodes.length - 1]!, ids);
  try {
    const seqBefore = new Map(auctions.map((a) => [a.id, a.seq]));
    const answers = await Promise.all(
      auctions.map(async (a, i) => {
        const one = i % w.first.length;
        // A third of the rounds at the same moment, a third each with one side 15 ms ahead: both orders happen.
        const ahead = (side: number) => (i % 3 === side + 1 ? 15 : 0);
        const later = <T,>(ms: number, f: () => Promise<T>) => new Promise<T>((resolve, reject) => setTimeout(() => f().then(resolve, reject), ms));
        const [x, y] = await Promise.all([
          later(ahead(1), () => send(w.first[one]!, kinds[0], a.id)),
          later(ahead(0), () => send(w.second[(one + 1) % w.second.length]!, kinds[1], a.id)),
        ]);
        return { id: a.id, x, y, xUser: w.firstIds[one]!, yUser: w.secondIds[(one + 1) % w.second.length]! };
      }),
    );
    const tally: Record<string, number> = {};
    for (const { id, x, y, xUser, yUser } of answers) {
      const row = await auctionRow(node, id);
      const history = (await w.seller.api.get(`/api/bids/${id}/`)).body as { bidder: number; amount: number; buy_now: boolean }[];
      const accepted = (r: typeof x) => r.status === 200 || r.status === 201;
      const codeOf = (r: typeof x) => (r.body as { code?: string }).code;
      const buyFirst = (kinds[0] === 'buy' && x.status === 201 ? 'x' : kinds[1] === 'buy' && y.status === 201 ? 'y' : null) as 'x' | 'y' | null;
      const key = `${kinds[0]} ${x.status}${codeOf(x) ? ` ${codeOf(x)}` : ''} / ${kinds[1]} ${y.status}${codeOf(y) ? ` ${codeOf(y)}` : ''}`;
      tally[key] = (tally[key] ?? 0) + 1;
      if (buyFirst) {
        // The buy-now was first: sold now, the other one refused as ended.
        const buyer = buyFirst === 'x' ? xUser : yUser;
        const other = buyFirst === 'x' ? y : x;
        expect(other.status, key).toBe(400);
        expect(codeOf(other), key).toBe('auction_ended');
        expect(row).toMatchObject({ status: 'ended', outcome: 'sold', winner_id: buyer, current_price: BUY, bid_count: 1 });
        expect(history).toEqual([expect.objectContaining({ bidder: buyer, amount: BUY, buy_now: true })]);
        await eventually(() => (watcher.events.get(id)?.length ?? 0) >= 2, 5000);
        expect(watcher.events.get(id)).toEqual([
          { event: 'bid:placed', seq: seqBefore.get(id)! + 1, outcome: undefined },
          { event: 'auction:closed', seq: seqBefore.get(id)! + 2, outcome: 'sold' },
        ]);
        expect((await notificationsOf(node, buyer, 'won')).filter((n) => n.auction_id === id)).toHaveLength(1);
        expect((await notificationsOf(node, w.seller.user.id, 'auction_ended')).filter((n) => n.auction_id === id)).toHaveLength(1);
      } else {
        // The bid or maximum was first: the buy-now refused, the auction goes on with one row.
        const bidder = kinds[0] === 'buy' ? y : x;
        const buyer = kinds[0] === 'buy' ? x : y;
        expect(accepted(bidder), key).toBe(true);
        expect(buyer.status, key).toBe(400);
        expect(codeOf(buyer), key).toBe('buy_now_unavailable');
        expect(row).toMatchObject({ status: 'active', outcome: null, winner_id: null, current_price: START + 10, bid_count: 1 });
        expect(history).toEqual([expect.objectContaining({ amount: START + 10, buy_now: false })]);
        await eventually(() => (watcher.events.get(id)?.length ?? 0) >= 1, 5000);
        await new Promise((r) => setTimeout(r, 50));
        expect(watcher.events.get(id)).toEqual([{ event: 'bid:placed', seq: seqBefore.get(id)! + 1, outcome: undefined }]);
        expect((await w.seller.api.get(`/api/auction/${id}/`)).body).toMatchObject({ buy_now_price: null, status: 'active' });
      }
    }
    // Which one the server took first varies from run to run; the tally is printed for the reader.
    console.info(`${kinds.join(' vs ')}: ${JSON.stringify(tally)}`);
    return tally;
  } finally {
    watcher.socket.close();
  }
}

function scenarios(getWorld: () => World) {
  it('a bid and a buy-now together: one wins, the other gets its ordinary refusal', async () => {
    const tally = await race(getWorld(), ['bid', 'buy']);
    expect(Object.values(tally).reduce((a, b) => a + b, 0)).toBe(ROUNDS);
    // Both orders were met (a round with one side 15 ms ahead decides it).
    expect(Object.keys(tally).sort()).toEqual(['bid 201 / buy 400 buy_now_unavailable', 'bid 400 auction_ended / buy 201']);
  }, 120_000);

  it('two buy-nows together: exactly one buys, the other is refused as ended', async () => {
    const tally = await race(getWorld(), ['buy', 'buy']);
    expect(Object.keys(tally).every((k) => k === 'buy 201 / buy 400 auction_ended' || k === 'buy 400 auction_ended / buy 201')).toBe(true);
  }, 120_000);

  it('a maximum and a buy-now together: one wins, the other gets its ordinary refusal', async () => {
    const tally = await race(getWorld(), ['max', 'buy']);
    expect(Object.values(tally).reduce((a, b) => a + b, 0)).toBe(ROUNDS);
    expect(Object.keys(tally).sort()).toEqual(['max 200 / buy 400 buy_now_unavailable', 'max 400 auction_ended / buy 201']);
  }, 120_000);
}

async function members(node: TestServer, nodes: TestServer[], name: string): Promise<{ apis: ApiClient[]; ids: number[] }> {
  const apis: ApiClient[] = [];
  const ids: number[] = [];
  for (let i = 0; i < 2; i++) {
    const u = await createUser(node.ctx, { first_name: `${name} ${i + 1}` });
    apis.push(await loginAs(nodes[i % nodes.length]!.url, u));
    ids.push(u.id);
  }
  return { apis, ids };
}

async function worldOn(nodes: TestServer[]): Promise<World> {
  const node = nodes[0]!;
  const s = await createUser(node.ctx, { first_name: 'Prodavac Trka' });
  const seller = { user: s, api: await loginAs(node.url, s) };
  const first = await members(node, nodes, 'Prvi');
  const second = await members(node, nodes, 'Drugi');
  return { nodes, seller, first: first.apis, second: second.apis, firstIds: first.ids, secondIds: second.ids };
}

describe(`"Kupi odmah" racing on one node (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  let world: World;
  beforeAll(async () => {
    world = await worldOn([await startTestServer({ SOFT_CLOSE_SECONDS: '0' })]);
  }, 60_000);
  afterAll(async () => {
    for (const n of world?.nodes ?? []) await n.close();
  });
  scenarios(() => world);
});

describe('"Kupi odmah" racing on two nodes (one PostgreSQL database and one Redis, in the SQLite run too)', () => {
  let world: World;
  let dbName = '';
  let prefix = '';
  beforeAll(async () => {
    await requireRedis();
    dbName = await createTestDatabase({ unmigrated: !onPostgres });
    prefix = uniqueRedisPrefix();
    const env = { DATABASE_URL: databaseUrl(dbName), REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, SOFT_CLOSE_SECONDS: '0' };
    const nodes: TestServer[] = [];
    for (let i = 0; i < 2; i++) nodes.push(await startTestServer(env));
    world = await worldOn(nodes);
  }, 120_000);
  afterAll(async () => {
    for (const n of world?.nodes ?? []) await n.close();
    if (prefix) await dropRedisPrefix(prefix);
    if (dbName) await dropTestDatabase(dbName);
  });
  scenarios(() => world);
});
