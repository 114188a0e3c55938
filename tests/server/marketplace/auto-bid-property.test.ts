/**
 * Automatic bidding (issue 14) held against a reference model written separately from the server's rules
 * (tests/support/auto-bid-model.ts): first the issue's two worked examples, on the model and on the server;
 * then fast-check's random sequences of manual bids, maxima and raises from 2–6 bidders, each step sent over
 * real HTTP to a real server (SQLite file, or PostgreSQL under `npm run test:pg`) and compared with the model:
 * the answer (status, refusal code, current_price/min_amount, price, bid_count, leading), the history with
 * its `auto` flags, the detail's price and count, every participant's own maximum (GET auto-bid) and the
 * `outbid` notifications (beaten maximum / plain outbid text, to whom, with which amount).
 *
 * Issue 25: each random sequence may have a hidden reserve and a "Kupi odmah" price (both, one or none; the
 * reserve at most the buy-now price), its steps may buy it now or aim at the reserve, and the comparison adds
 * the history's `buy_now` flag, the detail's shown buy-now price and `reserve_met`, and, after the last step,
 * how the close ends (outcome and winner) against the model's `close`.
 *
 * Quick: AUTOBID_RUNS (default 40) sequences of up to 15 steps; `npm run test:full` (TEST_FULL=1): 200 of
 * up to 25. A failure prints the shrunk sequence (e.g. `B max T+0`) and, as the assertion's message, the
 * steps with the amounts they resolved to and what the model expected of each.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { actor, type Actor } from '../../support/marketplace';
import { activeMaxOf, apply, close, initialState, run, type ModelAction, type ModelOutcome, type ModelState } from '../../support/auto-bid-model';
import { closeAuction } from '../../../server/features/auctions/closing';
import { detailOf, grouped, historyOf, noticesOf, ownMax, putMax, sellerNewBid } from '../../support/auto-bid-world';

const FULL = process.env.TEST_FULL === '1';
const RUNS = Number(process.env.AUTOBID_RUNS ?? (FULL ? 200 : 40));
const MAX_STEPS = FULL ? 25 : 15;
const START = 500;
const NAMES = ['A', 'B', 'C', 'D', 'E', 'F'];

let t: TestServer;
let seller: Actor;
let bidders: Actor[];

beforeAll(async () => {
  t = await startTestServer();
  seller = await actor(t, { first_name: 'Prodavac' });
  bidders = await Promise.all(NAMES.map((n) => actor(t, { first_name: `Licitant ${n}` })));
});
afterAll(async () => {
  await t.close();
});

/** Model bidders are indexes 0–5 (A–F); the server knows them by user id. */
const indexOf = (userId: number) => bidders.findIndex((b) => b.user.id === userId);
const rowText = (r: { bidder: number; amount: number; auto: boolean }) => `${NAMES[r.bidder] ?? r.bidder} ${r.amount}${r.auto ? ' auto' : ''}`;

function outcomeText(o: ModelOutcome): string {
  const parts = [o.refusal ? `400 ${o.refusal.code} (min ${o.refusal.min_amount})` : String(o.status)];
  if (o.rows.length) parts.push(`rows ${o.rows.map(rowText).join(', ')}`);
  parts.push(`price ${o.price}`);
  for (const n of o.notices) parts.push(n.kind === 'max_beaten' ? `${NAMES[n.user]} told: maximum ${n.max} beaten` : `${NAMES[n.user]} told: outbid at ${n.price}`);
  return parts.join('; ');
}

/** The body of the last answer `send` got, as text (a retry under the same Idempotency-Key must repeat it). */
let lastText = '';

/** Sends one model action to the server; the answer reduced to what the model predicts. */
async function send(auctionId: number, a: ModelAction, key?: string) {
  const who = bidders[a.bidder];
  if (a.kind === 'buy') {
    const res = await who.api.post(`/api/auctions/${auctionId}/buy-now/`, {});
    lastText = res.text;
    const b = res.body as Record<string, unknown>;
    if (res.status === 201) return { status: 201, price: b.price, winner: indexOf(b.winner as number), auction_id: b.auction_id === auctionId };
    return { status: res.status, code: b.code };
  }
  const res =
    a.kind === 'bid'
      ? await who.api.post('/api/bids/', { auction_item_id: auctionId, amount: a.amount }, key ? { headers: { 'idempotency-key': key } } : {})
      : await putMax(who.api, auctionId, a.amount);
  lastText = res.text;
  const b = res.body as Record<string, unknown>;
  if (res.status === 400) {
    const field = a.kind === 'bid' ? 'amount' : 'max_amount';
    return { status: 400, refusal: { code: b.code, current_price: b.current_price, min_amount: b.min_amount }, fieldMessage: Array.isArray(b[field]) };
  }
  if (res.status === 201) {
    return { status: 201, row: { bidder: indexOf(b.bidder as number), amount: b.amount, auto: b.auto }, price: b.current_price, bid_count: b.bid_count, leading: b.leading };
  }
  if (res.status === 200) return { status: 200, max_amount: b.max_amount, price: b.current_price, bid_count: b.bid_count, leading: b.leading };
  return { status: res.status, text: res.text };
}

function expectedAnswer(a: ModelAction, o: ModelOutcome) {
  if (a.kind === 'buy') return o.refusal ? { status: 400, code: o.refusal.code } : { status: 201, price: o.price, winner: a.bidder, auction_id: true };
  if (o.refusal) return { status: 400, refusal: o.refusal, fieldMessage: true };
  if (o.status === 201) return { status: 201, row: { bidder: a.bidder, amount: a.amount, auto: false }, price: o.price, bid_count: o.bid_count, leading: o.leading };
  return { status: 200, max_amount: a.amount, price: o.price, bid_count: o.bid_count, leading: o.leading };
}

/** What the server shows after a step, next to what the model says it should. */
async function compareState(auctionId: number, s: ModelState, participants: number, trace: string[]) {
  const viewer = bidders[0].api;
  const [history, detail, options, notices, maxima, forSeller] = await Promise.all([
    historyOf(viewer, auctionId),
    detailOf(viewer, auctionId),
    viewer.get(`/api/auction/${auctionId}/`).then((r) => ({ buy_now_price: r.body.buy_now_price, reserve_met: r.body.reserve_met, reserve_price: r.body.reserve_price })),
    noticesOf(t, auctionId),
    Promise.all(bidders.slice(0, participants).map((b) => ownMax(b.api, auctionId))),
    sellerNewBid(t, auctionId, seller.user.id),
  ]);
  // The seller hears of the last row of each request (folded into one notification while unread).
  const last = s.rows[s.rows.length - 1];
  const seen = {
    rows: history.map((r) => ({ bidder: indexOf(r.bidder), amount: r.amount, auto: r.auto, ...(r.buy_now ? { buy_now: true } : {}) })),
    detail,
    options,
    notices: notices.map((n) => (typeof n === 'string' ? n : { ...n, user: indexOf(n.user) })),
    maxima,
    sellerHeardOfLastRow: forSeller !== null && last !== undefined && forSeller.includes(`${grouped(last.amount)}`) && forSeller.includes(`Licitant ${NAMES[last.bidder]}`),
  };
  const want = {
    rows: s.rows,
    detail: { price: s.price, bid_count: s.rows.length },
    // The issue's words: no buy-now price after the first bid or once ended; the reserve met at or above it;
    // the amount itself never shown to a bidder.
    options: {
      buy_now_price: s.rows.length === 0 && !s.ended ? s.buyNow : null,
      reserve_met: s.reserve === null ? null : s.rows.length > 0 && s.price >= s.reserve,
      reserve_price: undefined,
    },
    notices: s.notices,
    maxima: bidders.slice(0, participants).map((_, i) => activeMaxOf(s, i)),
    // The seller hears of each request's last row through `new_bid`; a "Kupi odmah" is told as the close.
    sellerHeardOfLastRow: last !== undefined && !last.buy_now,
  };
  expect(seen, trace.join('\n')).toEqual(want);
}

/** A step as fast-check generates it: who, what, and an amount relative to the price, the active maximum T or its own. */
interface Plan {
  who: number;
  /** A manual bid sent with an Idempotency-Key, then sent again with the same key (a client's retry). */
  retry?: boolean;
  kind: 'bid' | 'max' | 'raise' | 'buy';
  anchor: 'price' | 'T' | 'own' | 'R';
  delta: number;
}

const who = fc.integer({ min: 0, max: 5 });
const retry = fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
/** Weighted towards the edges of the rules: amounts around T (rules 2 and 3), the price + 10, raises. */
const planArb = fc
  .oneof(
    { weight: 5, arbitrary: fc.record({ who, kind: fc.constantFrom('bid' as const, 'max' as const), anchor: fc.constant('T' as const), delta: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 7, arbitrary: fc.constantFrom(-10, 10, -5, 5, -20, 20, 30, -1, 1) }), retry }) },
    { weight: 3, arbitrary: fc.record({ who, kind: fc.constantFrom('bid' as const, 'max' as const), anchor: fc.constant('price' as const), delta: fc.constantFrom(10, 100, 0, 9, 5, 20, 30, 29, 31, 50, 250), retry }) },
    { weight: 1, arbitrary: fc.record({ who, kind: fc.constant('raise' as const), anchor: fc.constant('own' as const), delta: fc.constantFrom(10, 0, -1, 100) }) },
    // Issue 25: around the reserve (the price when there is none), a leader's raise past it, and "Kupi odmah".
    { weight: 2, arbitrary: fc.record({ who, kind: fc.constantFrom('bid' as const, 'max' as const, 'raise' as const), anchor: fc.constant('R' as const), delta: fc.constantFrom(0, -10, 10, -1, 1, 500) }) },
    { weight: 1, arbitrary: fc.record({ who, kind: fc.constant('buy' as const), anchor: fc.constant('price' as const), delta: fc.constant(0) }) },
  )
  .map((p: Plan) => Object.assign(p, { [fc.toStringMethod]: () => planText(p) }));

function planText(p: Plan): string {
  if (p.kind === 'buy') return `${NAMES[p.who]} buy now`;
  return `${p.kind === 'raise' ? 'leader' : NAMES[p.who]} ${p.kind} ${p.anchor}${p.delta >= 0 ? '+' : ''}${p.delta}${p.retry && p.kind === 'bid' ? ' (sent twice, one Idempotency-Key)' : ''}`;
}

/** The seller's options of a sequence: a reserve and a buy-now price, each or both or none (reserve ≤ buy-now). */
interface Options {
  reserve: number | null;
  buyNow: number | null;
}
const optionsArb: fc.Arbitrary<Options> = fc
  .tuple(fc.option(fc.constantFrom(START + 10, START + 100, START + 305, START + 1000)), fc.option(fc.constantFrom(START + 10, START + 400, START + 2000)))
  .map(([reserve, buyNow]) => ({ reserve, buyNow: buyNow !== null && reserve !== null && buyNow < reserve ? reserve : buyNow }));

/** How many bidders take part (2–6), and their steps; unbiased, so sequences are long enough to meet every case. */
const sequenceArb = fc.noBias(fc.tuple(fc.integer({ min: 2, max: 6 }), fc.array(planArb, { minLength: 1, maxLength: MAX_STEPS, size: 'max' }), optionsArb));

/** The concrete action of a plan in the model's current state (`raise`: the leader changes its own maximum). */
function resolve(s: ModelState, p: Plan, participants: number): ModelAction {
  if (p.kind === 'buy') return { kind: 'buy', bidder: p.who % participants, amount: 0 };
  let who = p.kind === 'raise' && s.leader !== null ? s.leader : p.who % participants;
  // An amount around T is meant for someone else than T's owner (the owner's own cases come from `raise`).
  if (p.anchor === 'T' && s.max?.owner === who) who = (who + 1) % participants;
  const own = activeMaxOf(s, who);
  const base = p.anchor === 'R' ? (s.reserve ?? s.price) : p.kind === 'raise' ? (own ?? s.price) : p.anchor === 'T' && s.max ? s.max.amount : s.price;
  return { kind: p.kind === 'bid' ? 'bid' : 'max', bidder: who, amount: Math.max(1, base + p.delta) };
}

/** Which case of the rules an action meets in a state (for the trace and the generator's coverage). */
function caseOf(s: ModelState, a: ModelAction): string {
  if (s.ended) return 'after buy-now';
  if (a.kind === 'buy') return s.rows.length === 0 && s.buyNow !== null ? 'buy now' : 'buy now unavailable';
  const held = s.max;
  const cmp = (x: number, y: number) => (x < y ? '<' : x === y ? '=' : '>');
  if (held && held.owner === a.bidder) {
    if (a.kind === 'bid') return a.amount < s.price + 10 ? 'bid too low' : 'bid while holding a maximum';
    return a.amount > held.amount ? 'raise' : a.amount === held.amount ? 'same maximum' : 'lower maximum';
  }
  if (a.amount < s.price + 10) return `${a.kind} too low${a.amount === s.price + 9 ? ' by 1' : ''}`;
  if (!held) return s.leader === a.bidder ? `${a.kind} by the leader without a maximum` : `${a.kind} with no maximum held`;
  const t = held.amount;
  const d = a.amount - t;
  // The boundaries inside each case of rules 2 and 3, where an off-by-one would hide.
  if (d >= 10) return `${a.kind} ≥ T + 10${a.kind === 'max' ? `, T ${cmp(t, s.price)} price` : ''}${d === 10 ? ', = T + 10' : ''}`;
  if (d > 0) return `${a.kind} in (T, T + 10)`;
  if (d === 0) return `${a.kind} = T${a.kind === 'max' ? `, N − 10 ${cmp(a.amount - 10, s.price + 10)} price + 10` : ''}`;
  if (d > -10) return `${a.kind} in (T − 10, T)`;
  return `${a.kind} ≤ T − 10${d === -10 ? ', = T − 10' : ''}`;
}

const ALL_CASES = [
  'bid too low',
  'bid too low by 1',
  'bid while holding a maximum',
  'raise',
  'same maximum',
  'lower maximum',
  'max too low',
  'max too low by 1',
  'bid by the leader without a maximum',
  'max by the leader without a maximum',
  'bid with no maximum held',
  'max with no maximum held',
  'bid ≥ T + 10',
  'bid ≥ T + 10, = T + 10',
  'max ≥ T + 10, T = price',
  'max ≥ T + 10, T > price',
  'max ≥ T + 10, T > price, = T + 10',
  ...['in (T, T + 10)', 'in (T − 10, T)', '≤ T − 10', '≤ T − 10, = T − 10'].flatMap((c) => [`bid ${c}`, `max ${c}`]),
  'bid = T',
  'max = T, N − 10 < price + 10',
  'max = T, N − 10 = price + 10',
  'max = T, N − 10 > price + 10',
];

describe('automatic bidding: the reference model', () => {
  it('reproduces the first worked example of the issue (start 500)', () => {
    const [A, B, C] = [0, 1, 2];
    const { state, outcomes } = run(500, [
      { kind: 'max', bidder: A, amount: 1000 },
      { kind: 'max', bidder: B, amount: 800 },
      { kind: 'max', bidder: B, amount: 1000 },
      { kind: 'bid', bidder: C, amount: 1005 },
      { kind: 'bid', bidder: C, amount: 1010 },
    ]);
    expect(outcomes.map((o) => o.rows.map((r) => [r.bidder, r.amount]))).toEqual([[[A, 510]], [[B, 800], [A, 810]], [[B, 990], [A, 1000]], [], [[C, 1010]]]);
    expect(outcomes[3].refusal).toEqual({ code: 'bid_too_low', current_price: 1000, min_amount: 1010 });
    expect(outcomes.map((o) => o.leading)).toEqual([true, false, false, false, true]);
    expect(state.notices).toEqual([
      { user: B, kind: 'max_beaten', max: 800 },
      { user: B, kind: 'max_beaten', max: 1000 },
      { user: A, kind: 'max_beaten', max: 1000 },
    ]);
    expect(state.rows.map((r) => r.auto)).toEqual([true, true, true, true, true, false]);
    expect([state.leader, state.max, activeMaxOf(state, A)]).toEqual([C, null, null]);
  });

  it('reproduces the second worked example (A max 700; E bids 600, 700, 710)', () => {
    const [A, E] = [0, 4];
    const { state, outcomes } = run(500, [
      { kind: 'max', bidder: A, amount: 700 },
      { kind: 'bid', bidder: E, amount: 600 },
      { kind: 'bid', bidder: E, amount: 700 },
      { kind: 'bid', bidder: E, amount: 710 },
    ]);
    expect(outcomes.map((o) => o.rows.map(rowText))).toEqual([['A 510 auto'], ['E 600', 'A 610 auto'], ['A 700 auto'], ['E 710']]);
    expect(outcomes.map((o) => o.status)).toEqual([200, 201, 400, 201]);
    expect(outcomes[1]).toMatchObject({ price: 610, bid_count: 3, leading: false });
    expect(outcomes[2].refusal).toEqual({ code: 'bid_too_low', current_price: 700, min_amount: 710 });
    expect(state.notices).toEqual([
      { user: E, kind: 'outbid', price: 610 },
      { user: A, kind: 'max_beaten', max: 700 },
    ]);
  });

  it('answers raises, the same maximum again, lowering, and a manual bid by the holder of a maximum', () => {
    const A = 0;
    const { outcomes, state } = run(500, [
      { kind: 'max', bidder: A, amount: 700 },
      { kind: 'max', bidder: A, amount: 900 },
      { kind: 'max', bidder: A, amount: 900 },
      { kind: 'max', bidder: A, amount: 899 },
      { kind: 'bid', bidder: A, amount: 600 },
      { kind: 'bid', bidder: A, amount: 515 },
    ]);
    expect(outcomes.map((o) => [o.status, o.refusal?.code, o.rows.length])).toEqual([
      [200, undefined, 1],
      [200, undefined, 0],
      [200, undefined, 0],
      [400, 'max_only_raise', 0],
      [400, 'auto_bid_active', 0],
      [400, 'bid_too_low', 0],
    ]);
    expect(activeMaxOf(state, A)).toBe(900);
  });
});

/** Issue 25's cases: buy now (and too late), and the reserve's effect on a maximum, on a raise and at a close. */
const RESERVE_CASES = ['buy now', 'buy now unavailable', 'after buy-now', 'row placed at the reserve', 'leader raise writes the reserve row', 'manual bid below the reserve', 'closed below the reserve', 'closed sold with a reserve'];

/** Which issue-25 cases a step meets (beside caseOf's). */
function reserveCasesOf(s: ModelState, a: ModelAction, o: ModelOutcome): string[] {
  const out: string[] = [];
  if (s.reserve === null || a.kind === 'buy' || s.ended) return out;
  const atR = o.rows.filter((r) => r.auto && r.amount === s.reserve);
  if (atR.length && o.rows.length === 1 && a.kind === 'max' && s.leader === a.bidder) out.push('leader raise writes the reserve row');
  else if (atR.length) out.push('row placed at the reserve');
  if (a.kind === 'bid' && o.status === 201 && a.amount < s.reserve) out.push('manual bid below the reserve');
  return out;
}

describe('automatic bidding: the generator', () => {
  it('reaches every case of rules 2–4, the boundaries inside them, and issue 25’s cases (200 sequences, fixed seed)', () => {
    const seen = new Set<string>();
    for (const [participants, plans, options] of fc.sample(sequenceArb, { numRuns: 200, seed: 14 })) {
      let state = initialState(START, options);
      for (const p of plans) {
        const a = resolve(state, p, participants);
        seen.add(caseOf(state, a));
        const r = apply(state, a);
        for (const c of reserveCasesOf(state, a, r.outcome)) seen.add(c);
        state = r.state;
      }
      const closed = close(state);
      if (state.reserve !== null && closed.outcome === 'reserve_not_met') seen.add('closed below the reserve');
      if (state.reserve !== null && closed.outcome === 'sold') seen.add('closed sold with a reserve');
    }
    expect(ALL_CASES.filter((c) => !seen.has(c))).toEqual([]);
    expect(RESERVE_CASES.filter((c) => !seen.has(c))).toEqual([]);
  });
});

describe('automatic bidding on the server, step by step against the model', () => {
  async function replay(actions: ModelAction[], participants: number) {
    const auction = await createAuction(t.ctx, seller.user.id, { starting_price: START, title: 'Automatska ponuda primer' });
    let state = initialState(START);
    const trace = [`start ${START}`];
    for (const a of actions) {
      const { state: next, outcome } = apply(state, a);
      trace.push(`${NAMES[a.bidder]} ${a.kind} ${a.amount} → model: ${outcomeText(outcome)}`);
      expect(await send(auction.id, a), trace.join('\n')).toEqual(expectedAnswer(a, outcome));
      await compareState(auction.id, next, participants, trace);
      state = next;
    }
    return { auction, state };
  }

  it('the first worked example', async () => {
    await replay(
      [
        { kind: 'max', bidder: 0, amount: 1000 },
        { kind: 'max', bidder: 1, amount: 800 },
        { kind: 'max', bidder: 1, amount: 1000 },
        { kind: 'bid', bidder: 2, amount: 1005 },
        { kind: 'bid', bidder: 2, amount: 1010 },
      ],
      3,
    );
  });

  it('the second worked example', async () => {
    await replay(
      [
        { kind: 'max', bidder: 0, amount: 700 },
        { kind: 'bid', bidder: 4, amount: 600 },
        { kind: 'bid', bidder: 4, amount: 700 },
        { kind: 'bid', bidder: 4, amount: 710 },
      ],
      5,
    );
  });

  it(`random sequences of bids, maxima, raises and "Kupi odmah" from 2–6 bidders, with and without a reserve (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(sequenceArb, async ([participants, plans, options]) => {
        const auction = await createAuction(t.ctx, seller.user.id, { starting_price: START, title: 'Automatska ponuda', reserve_price: options.reserve, buy_now_price: options.buyNow });
        let state = initialState(START, options);
        const trace = [`${participants} bidders, start ${START}, reserve ${options.reserve ?? 'none'}, buy now ${options.buyNow ?? 'none'}`];
        for (const p of plans) {
          const a = resolve(state, p, participants);
          const { state: next, outcome } = apply(state, a);
          trace.push(`${planText(p)}: ${NAMES[a.bidder]} ${a.kind} ${a.amount} (${caseOf(state, a)}) → model: ${outcomeText(outcome)}`);
          const key = p.retry && a.kind === 'bid' ? `retry-${auction.id}-${state.clock}` : undefined;
          expect(await send(auction.id, a, key), trace.join('\n')).toEqual(expectedAnswer(a, outcome));
          await compareState(auction.id, next, participants, trace);
          if (key) {
            // The retry answers what the first request answered, byte for byte, and changes nothing.
            const first = lastText;
            trace.push('  … sent again with the same Idempotency-Key');
            await send(auction.id, a, key);
            expect(lastText, trace.join('\n')).toBe(first);
            await compareState(auction.id, next, participants, trace);
          }
          state = next;
        }
        // The close, as the closer makes it now (a "Kupi odmah" closed it already).
        if (!state.ended) {
          await t.ctx.db.updateTable('auctions').set({ end_date: new Date(Date.now() - 1000).toISOString() }).where('id', '=', auction.id).execute();
          await closeAuction(t.ctx, auction.id);
        }
        const ended = await t.ctx.db.selectFrom('auctions').select(['outcome', 'winner_id']).where('id', '=', auction.id).executeTakeFirstOrThrow();
        const want = state.ended ? { outcome: 'sold', winner: state.leader } : close(state);
        trace.push(`closed → model: ${want.outcome}, winner ${want.winner === null ? 'none' : NAMES[want.winner]}`);
        expect({ outcome: ended.outcome, winner: ended.winner_id === null ? null : indexOf(ended.winner_id) }, trace.join('\n')).toEqual(want);
      }),
      { numRuns: RUNS, ...(process.env.AUTOBID_SEED ? { seed: Number(process.env.AUTOBID_SEED) } : {}) },
    );
  }, 600_000);
});
