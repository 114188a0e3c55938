/**
 * Bid lanes (server/features/bids/bid-lanes.ts; docs/performance.md, B1pg): this node's bids on one auction
 * take turns in memory before the row lock; a bid that waited behind an accepted one is refused from the
 * price that one left, without a transaction; a lane never holds a request for long; the closer takes its
 * turn behind the bids queued before the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { actor, auctionRow, bid, eventually, type Actor } from '../../support/marketplace';
import { LOCKED_AUCTION_READ, recordStatementsOf, type StatementLog } from '../../support/statements';
import { sleep } from '../../support/sockets';
import { createBidLanes, sawPrice, type BidLanes } from '../../../server/features/bids/bid-lanes';
import { closeAuction } from '../../../server/features/auctions/closing';

describe('lanes', () => {
  it('run turns one after another, in arrival order, and share the price seen', async () => {
    const lanes = createBidLanes(10_000);
    const order: string[] = [];
    let release!: () => void;
    const first = lanes.run(7, async (lane) => {
      order.push('first starts');
      await new Promise<void>((r) => (release = r));
      sawPrice(lane, 1500);
      order.push('first ends');
    });
    const second = lanes.run(7, async (lane) => void order.push(`second sees ${lane.price}`));
    const third = lanes.run(7, async (lane) => {
      sawPrice(lane, 1200); // lower than seen: the lane keeps the highest
      order.push(`third sees ${lane.price}`);
    });
    const other = lanes.run(8, async (lane) => void order.push(`other auction sees ${lane.price}`));
    await other;
    expect(lanes.inside(7)).toBe(3);
    expect(lanes.size).toBe(1);
    release();
    await Promise.all([first, second, third]);
    expect(order).toEqual(['first starts', 'other auction sees null', 'first ends', 'second sees 1500', 'third sees 1500']);
    // Emptied lanes are gone: the next burst starts without a price.
    expect(lanes.size).toBe(0);
    expect(await lanes.run(7, async (lane) => lane.price)).toBeNull();
  });

  it('a turn that fails ends its turn too; a stuck turn holds the next one only for the longest wait', async () => {
    const lanes = createBidLanes(40);
    await expect(lanes.run(1, async () => Promise.reject(new Error('kvar')))).rejects.toThrow('kvar');
    expect(await lanes.run(1, async () => 'dalje')).toBe('dalje');
    let release!: () => void;
    const stuck = lanes.run(1, () => new Promise<void>((r) => (release = r)));
    // Runs although the turn before it has not ended (it goes to the row lock and waits there instead).
    expect(await lanes.run(1, async () => 'nije čekao zauvek')).toBe('nije čekao zauvek');
    release();
    await stuck;
    expect(lanes.size).toBe(0);
  });
});

describe('bids in a lane', () => {
  let t: TestServer;
  let seller: Actor;
  let bidders: Actor[];
  let lanes: BidLanes;
  let log: StatementLog;

  beforeAll(async () => {
    t = await startTestServer({ SOFT_CLOSE_SECONDS: '0' });
    seller = await actor(t, { first_name: 'Prodavac' });
    bidders = await Promise.all(Array.from({ length: 6 }, (_, i) => actor(t, { first_name: `Trkač ${i + 1}` })));
    // Lanes that wait as long as the test holds them (the server's own wait at most 50 ms).
    lanes = createBidLanes(10_000);
    t.ctx.bidLanes = lanes;
    log = recordStatementsOf(t.ctx);
  });
  afterAll(async () => {
    log?.stop();
    await t?.close();
  });

  /** Holds the auction's lane until the returned release() (as a transaction slow to get the row would). */
  function holdLane(auctionId: number): { release(): void; done: Promise<void> } {
    let release!: () => void;
    const done = lanes.run(auctionId, () => new Promise<void>((r) => (release = r)));
    return { release: () => release(), done };
  }

  /** Bids decided inside the transaction: each reads (PostgreSQL: locks) the whole auction row there. */
  const lockedReads = () => log.sources.filter((s) => LOCKED_AUCTION_READ.test(s)).length;

  it('six bids at the same amount queued behind a turn: one takes the row and is accepted, five are refused from its price', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
    const hold = holdLane(a.id);
    log.reset();
    const answers = Promise.all(bidders.map((b) => bid(b.api, a.id, 1010)));
    // All passed the quick check at 1000 and wait in the lane.
    await eventually(() => lanes.inside(a.id) === 1 + bidders.length || undefined);
    hold.release();
    await hold.done;
    const res = await answers;
    expect(res.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of res.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'bid_too_low', current_price: 1010, min_amount: 1020, amount: ['Minimalna ponuda je 1020 din'] });
    }
    // Only the accepted bid took the row; the others never opened a transaction.
    expect(lockedReads()).toBe(1);
    expect(await auctionRow(t, a.id)).toMatchObject({ current_price: 1010, bid_count: 1 });
    expect(lanes.inside(a.id)).toBe(0);
    // A bid above the price its turn comes after still gets its own turn at the row.
    const again = holdLane(a.id);
    log.reset();
    const first = bid(bidders[0]!.api, a.id, 1020);
    await eventually(() => lanes.inside(a.id) === 2 || undefined);
    const higher = bid(bidders[1]!.api, a.id, 1100);
    await eventually(() => lanes.inside(a.id) === 3 || undefined);
    again.release();
    expect((await first).status).toBe(201);
    expect((await higher).status).toBe(201);
    expect(lockedReads()).toBe(2);
    expect(await auctionRow(t, a.id)).toMatchObject({ current_price: 1100, bid_count: 3 });
  });

  it('a bid made before the end, waiting in the lane when the closer comes, is decided before the close', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, endsInMs: 1500 });
    const end = Date.parse((await auctionRow(t, a.id)).end_date);
    const hold = holdLane(a.id);
    const madeBeforeEnd = bid(bidders[2]!.api, a.id, 1200);
    await eventually(() => lanes.inside(a.id) === 2 || undefined);
    await sleep(end + 50 - Date.now());
    // The closer due now (the server's own timer may come too: the same lane, the same order).
    const closing = closeAuction(t.ctx, a.id);
    await eventually(() => lanes.inside(a.id) >= 3 || undefined);
    hold.release();
    const [res] = await Promise.all([madeBeforeEnd, closing]);
    expect(res.status).toBe(201);
    const detail = await bidders[0]!.api.get(`/api/auction/${a.id}/`);
    expect(detail.body).toMatchObject({ status: 'ended', winner: bidders[2]!.user.id, current_price: 1200, bid_count: 1 });
  });
});
