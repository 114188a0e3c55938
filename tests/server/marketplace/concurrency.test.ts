import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { actor, auctionRow, bid, notificationsOf, type Actor } from '../../support/marketplace';

let t: TestServer;
let seller: Actor;
let bidders: Actor[];

beforeAll(async () => {
  t = await startTestServer();
  seller = await actor(t, { first_name: 'Prodavac Gužva' });
  bidders = await Promise.all(Array.from({ length: 20 }, (_, i) => actor(t, { first_name: `Licitant ${i + 1}` })));
});
afterAll(async () => {
  await t.close();
});

/** A small deterministic PRNG so a failure can be replayed. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

describe('POST /api/bids/ under concurrency', () => {
  it('20 users firing 500 bids at once: no equal prices, every step ≥ +10, consistent totals and notifications', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000, title: 'Vruća aukcija' });
    const rand = rng(20261122);
    // A rising ladder with noise: about five requests aim at each price (collisions), many land below the
    // moving minimum ("too low"), and some are off the 10-dinar grid.
    const shots = Array.from({ length: 500 }, (_, i) => ({
      who: bidders[i % bidders.length],
      amount: 1000 + 10 * Math.max(1, 1 + Math.floor(i / 5) + Math.floor(rand() * 5) - 2) + (rand() < 0.2 ? 5 : 0),
    }));
    const results = await Promise.all(shots.map((s) => bid(s.who.api, a.id, s.amount).then((res) => ({ ...s, res }))));

    expect(results.every((r) => r.res.status === 201 || r.res.status === 400)).toBe(true);
    for (const r of results.filter((x) => x.res.status === 400)) {
      expect(r.res.body.amount).toEqual([expect.stringMatching(/^Minimalna ponuda je \d+ din$/)]);
    }
    const accepted = results
      .filter((r) => r.res.status === 201)
      .map((r) => ({ id: r.res.body.id as number, bidder: r.who.user.id, amount: r.res.body.amount as number, bid_count: r.res.body.bid_count as number }))
      .sort((x, y) => x.id - y.id);
    expect(accepted.length).toBeGreaterThan(20);
    expect(accepted.length).toBeLessThan(500);

    const amounts = accepted.map((b) => b.amount);
    expect(new Set(amounts).size).toBe(amounts.length);
    let previous = 1000;
    for (const b of accepted) {
      expect(b.amount).toBeGreaterThanOrEqual(previous + 10);
      previous = b.amount;
    }
    // Each answer's bid_count is its position in the sequence.
    expect(accepted.map((b) => b.bid_count)).toEqual(accepted.map((_, i) => i + 1));

    const row = await auctionRow(t, a.id);
    expect(row.current_price).toBe(Math.max(...amounts));
    expect(row.bid_count).toBe(accepted.length);
    expect(row.seq).toBe(a.seq + accepted.length);

    const stored = (await bidders[0].api.get(`/api/bids/${a.id}/`)).body;
    expect(stored.map((b) => [b.id, b.bidder, b.amount])).toEqual(accepted.map((b) => [b.id, b.bidder, b.amount]));

    // Outbid notifications: whenever the lead passed to someone else, the previous leader got one.
    const expected: { user: number; amount: number }[] = [];
    for (let i = 1; i < accepted.length; i++) {
      if (accepted[i].bidder !== accepted[i - 1].bidder) expected.push({ user: accepted[i - 1].bidder, amount: accepted[i].amount });
    }
    const outbid = (
      await t.ctx.db.selectFrom('notifications').selectAll().where('kind', '=', 'outbid').where('auction_id', '=', a.id).orderBy('id').execute()
    ).map((n) => ({ user: n.user_id, amount: Number(/Nova cena: ([\d.]+) din\./.exec(n.message)![1].replace(/\./g, '')) }));
    expect(outbid).toEqual(expected);
    // The seller got one coalesced notification for the whole burst.
    const forSeller = await notificationsOf(t, seller.user.id, 'new_bid');
    expect(forSeller).toHaveLength(1);
    expect(forSeller[0].message).toContain(`Broj novih ponuda: ${accepted.length}`);
  }, 60_000);
});
