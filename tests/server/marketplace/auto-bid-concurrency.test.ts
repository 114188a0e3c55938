/**
 * Automatic bidding under concurrency (issue 14, "Tests and figures"): 50 bidders mix maxima (new, raised),
 * manual bids and manual bids while holding a maximum on one auction, closed loop, for 3 s (`npm test`) or
 * 10 s (`npm run test:full`, or AUTOBID_SECONDS; longer, up to 3×, until MIN_ROWS rows exist on a busy
 * machine), while socket.io watchers (WebSocket and long-polling) follow the auction; then 6 bidders with
 * amounts close together for 2 s (5 s full), so that raises race new maxima and holders bid by hand. Afterwards:
 * - the history has no repeated amount, each row above the previous (manual rows by ≥ 10), and the price and
 *   bid count of the detail are its last row and its length;
 * - the acknowledged requests, put back in order from the rows and the answers (tests/support/auto-bid-replay.ts),
 *   replayed through the reference model give exactly the same rows, price and leader, every answer as the
 *   server gave it, every refusal one the model gives at the price it stated, every participant's own maximum
 *   (GET auto-bid) and the same `outbid` notifications;
 * - every acknowledged maximum was honoured: its owner leads holding at least it, or was told it was beaten
 *   and someone else's row reached it;
 * - every watcher saw every seq exactly once, each event's bid equal to its row (with the `auto` flag), and
 *   bidders listening on their own socket got each of their `outbid` notifications live, once.
 * The last test runs the same load on two nodes (one PostgreSQL database, one Redis), bidders, watchers and
 * listeners spread over both.
 * Runs on SQLite and, under `npm run test:pg`, on PostgreSQL.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BidPlacedEvent } from '@shared/schemas/bids';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { actor, auctionRow, bid, eventually, type Actor } from '../../support/marketplace';
import { collectEvents, connectSocket, emitWithAck, type TestSocket } from '../../support/sockets';
import { actors, FULL, mapLimit, rng } from '../../support/reliability-load';
import { createUser, loginAs } from '../../support/factories';
import { dropRedisPrefix, requireRedis, TEST_REDIS_URL, uniqueRedisPrefix } from '../../support/multinode';
import { createTestDatabase, databaseUrl, dropTestDatabase, onPostgres } from '../../support/pg';
import { activeMaxOf, replayRows, type ModelAction } from '../../support/auto-bid-model';
import { replayAcks, type Ack } from '../../support/auto-bid-replay';
import { detailOf, historyOf, noticesOf, ownMax, putMax } from '../../support/auto-bid-world';

const BIDDERS = 50;
const WATCHERS = 4;
const LISTENERS = 10;
const SECONDS = Number(process.env.AUTOBID_SECONDS ?? (FULL ? 10 : 3));
const FEW_SECONDS = FULL ? 5 : 2;
const NODE_BIDDERS = 10;
const START = 1000;
/** On a busy machine the load goes on past SECONDS (up to 3×) until this many rows exist, so the checks bite. */
const MIN_ROWS = 60;

let t: TestServer;
let seller: Actor;
let bidders: Actor[];
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await startTestServer({ SOFT_CLOSE_SECONDS: '0' });
  seller = await actor(t, { first_name: 'Prodavac Automatski' });
  bidders = await actors(t, BIDDERS, 'Licitant');
}, 180_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

/** One bidder's loop: what it knows is what the server answered it (and the last price anyone saw). */
interface Load {
  auctionId: number;
  seconds: number;
  /** Maxima land at the known price + 10 … + maxSpread, manual bids at + 10 … + 10 × bidSteps. */
  maxSpread: number;
  bidSteps: number;
  shared: { price: number; rows: number };
  acks: Ack[];
}

async function bidderLoop(who: Actor, seed: number, load: Load) {
  const { auctionId, shared } = load;
  const rand = rng(seed);
  let myMax: number | null = null;
  const until = Date.now() + load.seconds * 1000;
  const hardUntil = until + 2 * load.seconds * 1000;
  while (Date.now() < until || (shared.rows < MIN_ROWS && Date.now() < hardUntil)) {
    const r = rand();
    const price = shared.price;
    let action: ModelAction;
    // Spread wide: under load the price this bidder knows is old by the time its request lands.
    // A bidder who believes it leads with a maximum raises it, repeats it, tries to lower it or bids by hand.
    if (myMax !== null && r < 0.15) action = { kind: 'max', bidder: who.user.id, amount: myMax + Math.floor(rand() * 100) };
    else if (myMax !== null && r < 0.2) action = { kind: 'max', bidder: who.user.id, amount: myMax - 1 };
    else if (myMax !== null && r < 0.25) action = { kind: 'bid', bidder: who.user.id, amount: price + 10 };
    else if (r < 0.5) action = { kind: 'max', bidder: who.user.id, amount: price + 10 + Math.floor(rand() * load.maxSpread) };
    else action = { kind: 'bid', bidder: who.user.id, amount: price + 10 * (1 + Math.floor(rand() * load.bidSteps)) + (rand() < 0.2 ? 5 : 0) };
    const sent = performance.now();
    const res = action.kind === 'bid' ? await bid(who.api, auctionId, action.amount) : await putMax(who.api, auctionId, action.amount);
    const b: Record<string, unknown> = res.body;
    const ack: Ack = { action, status: res.status, at: [Math.round(sent), Math.round(performance.now())] };
    if (res.status === 201) Object.assign(ack, { rowId: b.id, price: b.current_price, bid_count: b.bid_count, leading: b.leading });
    else if (res.status === 200) Object.assign(ack, { price: b.current_price, bid_count: b.bid_count, leading: b.leading });
    else if (res.status === 400) Object.assign(ack, { code: b.code, current_price: b.current_price, min_amount: b.min_amount });
    else throw new Error(`unexpected answer ${res.status}: ${res.text}`);
    load.acks.push(ack);
    const seen = (ack.price ?? ack.current_price)!;
    shared.price = Math.max(shared.price, seen);
    shared.rows = Math.max(shared.rows, ack.bid_count ?? 0);
    if (action.kind === 'max' && res.status === 200) myMax = ack.leading ? action.amount : null;
    else if (res.status === 201 || (res.status === 400 && ack.code === 'bid_too_low' && action.kind === 'max')) myMax = null;
  }
}

/** Where a load runs: the node whose database the checks read, the nodes watchers connect to, the seller. */
interface World {
  node: TestServer;
  urls: string[];
  seller: Actor;
}

async function watch(url: string, auctionId: number): Promise<{ socket: TestSocket; events: BidPlacedEvent[] }> {
  const socket = await connectSocket(url, { transport: sockets.length % 2 ? 'polling' : 'websocket', timeoutMs: 20_000 });
  sockets.push(socket);
  const events = collectEvents(socket, 'bid:placed');
  const ack = await emitWithAck(socket, 'auction:join', { auction_id: auctionId }, 20_000);
  if (!ack.ok) throw new Error('join refused');
  return { socket, events };
}

/** Runs the load of `crowd` on a fresh auction and checks everything the file's comment lists. */
async function loadAndCheck(world: World, crowd: Actor[], opts: { seconds: number; maxSpread: number; bidSteps: number; seed: number }) {
  const t = world.node;
  const a = await createAuction(t.ctx, world.seller.user.id, { starting_price: START, title: 'Automatska gužva' });
  const watchers = await Promise.all(Array.from({ length: WATCHERS }, (_, i) => watch(world.urls[i % world.urls.length], a.id)));
  // Some bidders follow their own notifications live (room user:{id}, joined by a logged-in socket).
  const listeners = await Promise.all(
    crowd.slice(0, LISTENERS).map(async (b) => {
      const socket = await connectSocket(b.api.baseUrl, { cookie: b.api.cookieHeader, timeoutMs: 20_000 });
      sockets.push(socket);
      return { user: b.user.id, created: collectEvents(socket, 'notification:created') };
    }),
  );
  const acks: Ack[] = [];
  const load: Load = { auctionId: a.id, seconds: opts.seconds, maxSpread: opts.maxSpread, bidSteps: opts.bidSteps, shared: { price: START, rows: 0 }, acks };
  await Promise.all(crowd.map((b, i) => bidderLoop(b, opts.seed + i, load)));

  const history = await historyOf(crowd[0].api, a.id);
  const counts = { requests: acks.length, rows: history.length, maxima: acks.filter((x) => x.action.kind === 'max' && x.status === 200).length };
  console.log(`auto-bid concurrency, ${crowd.length} bidders: ${JSON.stringify(counts)}, answers ${JSON.stringify(tally(acks))}`);
  // Enough happened for the checks to mean something.
  expect(counts.rows).toBeGreaterThan(20);
  expect(counts.maxima).toBeGreaterThan(10);

  // The history on its own: a clean ladder, the detail agrees.
  const ladder = replayRows(START, history);
  expect(ladder.problems).toEqual([]);
  expect(await detailOf(crowd[0].api, a.id)).toEqual({ price: ladder.price, bid_count: history.length });

  // Through the model.
  const replay = replayAcks(START, history, acks);
  // AUTOBID_DUMP=<file>: the run (history, answers in arrival order, problems) as JSON, to study a failure.
  if (process.env.AUTOBID_DUMP) fs.writeFileSync(process.env.AUTOBID_DUMP, JSON.stringify({ start: START, history, acks, problems: replay.problems }, null, 1));
  expect(replay.problems.slice(0, 10)).toEqual([]);
  expect(replay.state.rows).toEqual(history.map(({ bidder, amount, auto }) => ({ bidder, amount, auto })));
  expect([replay.state.price, replay.state.leader]).toEqual([ladder.price, ladder.leader]);
  const maxima = await Promise.all(crowd.map((b) => ownMax(b.api, a.id)));
  expect(maxima).toEqual(crowd.map((b) => activeMaxOf(replay.state, b.user.id)));
  const byUserAndAmount = (n: { user: number; kind: string; max?: number; price?: number } | string) => (typeof n === 'string' ? n : `${n.user} ${n.kind} ${n.max ?? n.price}`);
  const notices = await noticesOf(t, a.id);
  expect(notices.map(byUserAndAmount).sort()).toEqual(replay.state.notices.map(byUserAndAmount).sort());

  // Every acknowledged maximum was honoured: still held by a leader, or beaten by someone who reached it and told.
  for (const x of acks.filter((y) => y.action.kind === 'max' && y.status === 200)) {
    const owner = x.action.bidder;
    const holds = replay.state.leader === owner && (maxima[crowd.findIndex((b) => b.user.id === owner)] ?? -1) >= x.action.amount;
    const reached = history.some((r) => r.bidder !== owner && r.amount >= x.action.amount);
    const told = replay.state.notices.some((n) => n.user === owner && n.kind === 'max_beaten' && n.max >= x.action.amount);
    expect({ max: x.action.amount, owner, honoured: holds || (reached && told) }).toEqual({ max: x.action.amount, owner, honoured: true });
  }

  // Each listener got every one of its notifications live, once.
  const stored = await t.ctx.db.selectFrom('notifications').select(['id', 'user_id']).where('auction_id', '=', a.id).where('kind', '=', 'outbid').execute();
  for (const l of listeners) {
    const mine = stored.filter((n) => n.user_id === l.user).map((n) => n.id).sort((x, y) => x - y);
    await eventually(() => l.created.filter((e) => e.notification.auction_id === a.id).length >= mine.length, 10_000);
    expect(l.created.filter((e) => e.notification.auction_id === a.id).map((e) => e.notification.id).sort((x, y) => x - y)).toEqual(mine);
  }

  // Every watcher saw every seq exactly once, each event the row of its seq.
  const row = await auctionRow(t, a.id);
  expect(row.seq).toBe(a.seq + history.length);
  await eventually(() => watchers.every((w) => w.events.length >= history.length), 15_000);
  const expected = history.map((h, i) => ({ seq: a.seq + i + 1, bidder: h.bidder, amount: h.amount, auto: h.auto }));
  for (const w of watchers) {
    const seen = w.events.map((e) => ({ seq: e.seq, bidder: e.bid.bidder, amount: e.bid.amount, auto: (e.bid as { auto?: boolean }).auto }));
    expect(seen.sort((x, y) => x.seq - y.seq)).toEqual(expected);
    // A maximum never travels in an event.
    expect(w.events.filter((e) => JSON.stringify(e).includes('max'))).toEqual([]);
  }
}

describe('putting a concurrent run back in order (tests/support/auto-bid-replay.ts)', () => {
  it('a bid equal to the maximum, then a new maximum: not one request of two rows (the refusal saw the first)', () => {
    const [L, B, N] = [7, 3, 6];
    const history = [
      { id: 1, bidder: L, amount: 1010, auto: true },
      { id: 2, bidder: L, amount: 1050, auto: true },
      { id: 3, bidder: N, amount: 1060, auto: true },
    ];
    const acks: Ack[] = [
      { action: { kind: 'max', bidder: L, amount: 1020 }, status: 200, price: 1010, bid_count: 1, leading: true },
      { action: { kind: 'max', bidder: L, amount: 1050 }, status: 200, price: 1010, bid_count: 1, leading: true },
      { action: { kind: 'bid', bidder: B, amount: 1050 }, status: 400, code: 'bid_too_low', current_price: 1050, min_amount: 1060 },
      { action: { kind: 'max', bidder: N, amount: 1100 }, status: 200, price: 1060, bid_count: 3, leading: true },
    ];
    const replay = replayAcks(START, history, acks);
    expect(replay.problems).toEqual([]);
    expect(replay.order.map((a) => [a.action.kind, a.action.bidder, a.action.amount])).toEqual([
      ['max', L, 1020],
      ['max', L, 1050],
      ['bid', B, 1050],
      ['max', N, 1100],
    ]);
  });
});

describe(`automatic bidding under concurrency (${WATCHERS} watchers)`, () => {
  it(`${BIDDERS} bidders for ${SECONDS} s: the rows replay through the model, every maximum is honoured, watchers see every seq once, notifications arrive live`, async () => {
    await loadAndCheck({ node: t, urls: [t.url], seller }, bidders, { seconds: SECONDS, maxSpread: 600, bidSteps: 40, seed: 20261124 });
  }, 180_000);

  it(`6 bidders close together for ${FEW_SECONDS} s (raises racing new maxima, bids by holders): the same checks`, async () => {
    await loadAndCheck({ node: t, urls: [t.url], seller }, bidders.slice(0, 6), { seconds: FEW_SECONDS, maxSpread: 40, bidSteps: 3, seed: 14 });
  }, 180_000);
});

describe('automatic bidding on two nodes (one PostgreSQL database and one Redis, in the SQLite run too)', () => {
  const nodes: TestServer[] = [];
  let dbName = '';
  let prefix = '';
  let world: World;
  let crowd: Actor[];

  beforeAll(async () => {
    await requireRedis();
    // Two nodes bidding on one SQLite file is not a supported set-up (docs/scaling.md): PostgreSQL in both runs.
    dbName = await createTestDatabase({ unmigrated: !onPostgres });
    prefix = uniqueRedisPrefix();
    const env = { DATABASE_URL: databaseUrl(dbName), REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, SOFT_CLOSE_SECONDS: '0' };
    // One after the other: in the SQLite run the first node migrates the empty database.
    for (let i = 0; i < 2; i++) nodes.push(await startTestServer(env));
    const user = await createUser(nodes[0].ctx, { first_name: 'Prodavac Dva Čvora' });
    world = { node: nodes[0], urls: nodes.map((n) => n.url), seller: { user, api: await loginAs(nodes[0].url, user) } };
    crowd = await mapLimit(Array.from({ length: NODE_BIDDERS }, (_, i) => i), 4, async (i) => {
      const u = await createUser(nodes[0].ctx, { first_name: `Licitant ${i + 1}` });
      return { user: u, api: await loginAs(nodes[i % 2].url, u) };
    });
  }, 180_000);
  afterAll(async () => {
    for (const n of nodes) await n.close();
    if (prefix) await dropRedisPrefix(prefix);
    if (dbName) await dropTestDatabase(dbName);
  });

  it(`${NODE_BIDDERS} bidders spread over both nodes for ${FEW_SECONDS} s, watchers and listeners on both: the same checks`, async () => {
    await loadAndCheck(world, crowd, { seconds: FEW_SECONDS, maxSpread: 100, bidSteps: 5, seed: 7 });
  }, 180_000);
});

function tally(acks: Ack[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of acks) {
    const k = `${a.action.kind} ${a.status}${a.code ? ` ${a.code}` : ''}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
