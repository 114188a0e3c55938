/**
 * The rules of automatic bidding (issue 14, docs/bidding.md) as the pure function resolveBid() states them:
 * the two worked examples, step by step, and each branch of rules 2, 3 and 4.
 */
import { describe, expect, it } from 'vitest';
import { resolveBid, type AutoBidAction, type AutoBidOutcome, type AutoBidState } from '@shared/rules/auto-bid';

const A = 1;
const B = 2;
const C = 3;
const E = 5;

const max = (bidder: number, amount: number): AutoBidAction => ({ kind: 'max', bidder, amount });
const manual = (bidder: number, amount: number): AutoBidAction => ({ kind: 'manual', bidder, amount });
const auto = (bidder: number, amount: number) => ({ bidder, amount, auto: true });
const typed = (bidder: number, amount: number) => ({ bidder, amount, auto: false });
const state = (price: number, leader: number | null = null, leaderMax: number | null = null): AutoBidState => ({ price, leader, leaderMax });
const next = (o: AutoBidOutcome): AutoBidState => ({ price: o.price, leader: o.leader, leaderMax: o.leaderMax });

describe('the worked examples of the issue', () => {
  it('start 500: A max 1,000 → A 510; B max 800 → B 800, A 810; B max 1,000 → B 990, A 1,000; C 1,005 refused; C 1,010 leads', () => {
    let o = resolveBid(state(500), max(A, 1000));
    expect(o).toEqual({ rows: [auto(A, 510)], price: 510, leader: A, leaderMax: 1000 });

    o = resolveBid(next(o), max(B, 800));
    expect(o).toEqual({ rows: [auto(B, 800), auto(A, 810)], price: 810, leader: A, leaderMax: 1000, beaten: { bidder: B, max: 800 } });

    o = resolveBid(next(o), max(B, 1000));
    expect(o).toEqual({ rows: [auto(B, 990), auto(A, 1000)], price: 1000, leader: A, leaderMax: 1000, beaten: { bidder: B, max: 1000 } });

    const refused = resolveBid(next(o), manual(C, 1005));
    expect(refused).toMatchObject({ rows: [], refusal: 'too_low', minAmount: 1010, price: 1000, leader: A, leaderMax: 1000 });

    o = resolveBid(next(o), manual(C, 1010));
    expect(o).toEqual({ rows: [typed(C, 1010)], price: 1010, leader: C, leaderMax: null, beaten: { bidder: A, max: 1000 } });
  });

  it('start 500: A max 700 → A 510; E 600 → E 600, A 610; E 700 → A 700 and E refused (min 710); E 710 leads', () => {
    let o = resolveBid(state(500), max(A, 700));
    expect(o.rows).toEqual([auto(A, 510)]);

    o = resolveBid(next(o), manual(E, 600));
    expect(o).toEqual({ rows: [typed(E, 600), auto(A, 610)], price: 610, leader: A, leaderMax: 700, outbid: E });

    o = resolveBid(next(o), manual(E, 700));
    expect(o).toEqual({ rows: [auto(A, 700)], refusal: 'too_low', minAmount: 710, price: 700, leader: A, leaderMax: 700 });

    o = resolveBid(next(o), manual(E, 710));
    expect(o).toEqual({ rows: [typed(E, 710)], price: 710, leader: E, leaderMax: null, beaten: { bidder: A, max: 700 } });
  });
});

describe('rule 2: a new maximum N from a bidder who does not lead', () => {
  it('is refused below price + 10', () => {
    expect(resolveBid(state(800, A, 1000), max(B, 809))).toMatchObject({ rows: [], refusal: 'too_low', minAmount: 810, price: 800 });
    expect(resolveBid(state(500), max(B, 509))).toMatchObject({ rows: [], refusal: 'too_low', minAmount: 510 });
  });

  it('without an active maximum of the leader: one row at price + 10, and the previous leader is outbid', () => {
    expect(resolveBid(state(500), max(B, 5000))).toEqual({ rows: [auto(B, 510)], price: 510, leader: B, leaderMax: 5000 });
    expect(resolveBid(state(700, A), max(B, 5000))).toEqual({ rows: [auto(B, 710)], price: 710, leader: B, leaderMax: 5000, outbid: A });
  });

  it('N ≥ T + 10: the leader at T (when above the price), then the newcomer at T + 10', () => {
    expect(resolveBid(state(600, A, 900), max(B, 910))).toEqual({
      rows: [auto(A, 900), auto(B, 910)],
      price: 910,
      leader: B,
      leaderMax: 910,
      beaten: { bidder: A, max: 900 },
    });
    expect(resolveBid(state(600, A, 900), max(B, 5000)).rows).toEqual([auto(A, 900), auto(B, 910)]);
    // T is the price already: no repeated amount, only the newcomer's row.
    expect(resolveBid(state(900, A, 900), max(B, 950))).toMatchObject({ rows: [auto(B, 910)], leader: B, beaten: { bidder: A, max: 900 } });
  });

  it('T < N < T + 10: the leader at T, then the newcomer at N', () => {
    expect(resolveBid(state(600, A, 900), max(B, 905))).toEqual({
      rows: [auto(A, 900), auto(B, 905)],
      price: 905,
      leader: B,
      leaderMax: 905,
      beaten: { bidder: A, max: 900 },
    });
  });

  it('N < T: the newcomer at N, then the leader at min(T, N + 10)', () => {
    expect(resolveBid(state(600, A, 900), max(B, 700))).toMatchObject({ rows: [auto(B, 700), auto(A, 710)], price: 710, leader: A, leaderMax: 900 });
    expect(resolveBid(state(600, A, 900), max(B, 895))).toEqual({
      rows: [auto(B, 895), auto(A, 900)],
      price: 900,
      leader: A,
      leaderMax: 900,
      beaten: { bidder: B, max: 895 },
    });
  });

  it('N = T: the earlier maximum wins; the newcomer at N − 10 only where that clears price + 10', () => {
    expect(resolveBid(state(600, A, 900), max(B, 900)).rows).toEqual([auto(B, 890), auto(A, 900)]);
    expect(resolveBid(state(600, A, 620), max(B, 620)).rows).toEqual([auto(B, 610), auto(A, 620)]);
    expect(resolveBid(state(600, A, 615), max(B, 615))).toEqual({ rows: [auto(A, 615)], price: 615, leader: A, leaderMax: 615, beaten: { bidder: B, max: 615 } });
  });
});

describe('rule 3: a manual bid X', () => {
  it('is refused below price + 10, also against a maximum', () => {
    expect(resolveBid(state(600, A, 900), manual(B, 605))).toMatchObject({ rows: [], refusal: 'too_low', minAmount: 610 });
  });

  it('without a maximum: the row as typed, the previous leader outbid (not when it is the leader itself)', () => {
    expect(resolveBid(state(600, A), manual(B, 655))).toEqual({ rows: [typed(B, 655)], price: 655, leader: B, leaderMax: null, outbid: A });
    expect(resolveBid(state(600, A), manual(A, 700))).toEqual({ rows: [typed(A, 700)], price: 700, leader: A, leaderMax: null });
    expect(resolveBid(state(500), manual(A, 510))).toEqual({ rows: [typed(A, 510)], price: 510, leader: A, leaderMax: null });
  });

  it('T ≥ X + 10: the leader answers at X + 10 and the manual bidder is outbid', () => {
    expect(resolveBid(state(600, A, 900), manual(B, 700))).toEqual({
      rows: [typed(B, 700), auto(A, 710)],
      price: 710,
      leader: A,
      leaderMax: 900,
      outbid: B,
    });
    expect(resolveBid(state(600, A, 900), manual(B, 890)).rows).toEqual([typed(B, 890), auto(A, 900)]);
  });

  it('X < T < X + 10: the leader answers at T', () => {
    expect(resolveBid(state(600, A, 900), manual(B, 895))).toMatchObject({ rows: [typed(B, 895), auto(A, 900)], price: 900, leader: A, outbid: B });
  });

  it('T = X: the leader’s row at T is written and the bid refused with minimum T + 10', () => {
    expect(resolveBid(state(600, A, 900), manual(B, 900))).toEqual({
      rows: [auto(A, 900)],
      refusal: 'too_low',
      minAmount: 910,
      price: 900,
      leader: A,
      leaderMax: 900,
    });
  });

  it('T < X: the manual bid leads and T is beaten (no row at T)', () => {
    expect(resolveBid(state(600, A, 900), manual(B, 901))).toEqual({ rows: [typed(B, 901)], price: 901, leader: B, leaderMax: null, beaten: { bidder: A, max: 900 } });
  });

  it('the holder of the active maximum is told to raise it instead', () => {
    expect(resolveBid(state(600, A, 900), manual(A, 2000))).toMatchObject({ rows: [], refusal: 'auto_bid_active', minAmount: 610, leader: A, leaderMax: 900 });
  });
});

describe('rule 4: the leader and its own maximum', () => {
  it('sets a first maximum (≥ price + 10) without a row', () => {
    expect(resolveBid(state(600, A), max(A, 610))).toEqual({ rows: [], price: 600, leader: A, leaderMax: 610 });
    expect(resolveBid(state(600, A), max(A, 609))).toMatchObject({ rows: [], refusal: 'too_low', minAmount: 610 });
  });

  it('raises at any time, repeats the same value, and may not lower it', () => {
    expect(resolveBid(state(900, A, 900), max(A, 905))).toEqual({ rows: [], price: 900, leader: A, leaderMax: 905 });
    expect(resolveBid(state(600, A, 900), max(A, 900))).toEqual({ rows: [], price: 600, leader: A, leaderMax: 900 });
    expect(resolveBid(state(600, A, 900), max(A, 899))).toMatchObject({ rows: [], refusal: 'only_raise', leaderMax: 900 });
  });
});

describe('rule 5: rows', () => {
  it('rise by at least 10 except a row capped at its owner’s maximum, and never repeat', () => {
    const cases: Array<[AutoBidState, AutoBidAction]> = [
      [state(600, A, 900), max(B, 905)],
      [state(600, A, 903), max(B, 1000)],
      [state(600, A, 900), max(B, 895)],
      [state(600, A, 900), manual(B, 895)],
      [state(600, A, 900), max(B, 900)],
    ];
    for (const [s, a] of cases) {
      const o = resolveBid(s, a);
      let prev = s.price;
      for (const r of o.rows) {
        expect(r.amount).toBeGreaterThan(prev);
        if (r.amount < prev + 10) expect(r.amount).toBe(r.bidder === a.bidder ? a.amount : s.leaderMax);
        prev = r.amount;
      }
    }
  });
});

describe('issue 25: the hidden reserve (start 1,000, reserve 5,000; docs/bidding.md)', () => {
  const R = 5000;
  const withR = (price: number, leader: number | null = null, leaderMax: number | null = null): AutoBidState => ({ price, leader, leaderMax, reserve: R });
  const nextR = (o: AutoBidOutcome): AutoBidState => ({ ...next(o), reserve: R });

  it('A max 8,000 → A 5,000 (met); B max 6,000 → B 6,000, A 6,010', () => {
    let o = resolveBid(withR(1000), max(A, 8000));
    expect(o).toEqual({ rows: [auto(A, 5000)], price: 5000, leader: A, leaderMax: 8000 });
    o = resolveBid(nextR(o), max(B, 6000));
    expect(o).toEqual({ rows: [auto(B, 6000), auto(A, 6010)], price: 6010, leader: A, leaderMax: 8000, beaten: { bidder: B, max: 6000 } });
  });

  it('A max 3,000 → A 1,010 (not met); B bids 4,000 → B 4,000, A beaten; C max 5,000 → C 5,000 (met at once, not 4,010)', () => {
    let o = resolveBid(withR(1000), max(A, 3000));
    expect(o).toEqual({ rows: [auto(A, 1010)], price: 1010, leader: A, leaderMax: 3000 });
    o = resolveBid(nextR(o), manual(B, 4000));
    expect(o).toEqual({ rows: [typed(B, 4000)], price: 4000, leader: B, leaderMax: null, beaten: { bidder: A, max: 3000 } });
    o = resolveBid(nextR(o), max(C, 5000));
    expect(o).toEqual({ rows: [auto(C, 5000)], price: 5000, leader: C, leaderMax: 5000, outbid: B });
  });

  it('A max 3,000 → A 1,010; A raises to 8,000 → the leader’s row at 5,000 (met)', () => {
    let o = resolveBid(withR(1000), max(A, 3000));
    expect(o.rows).toEqual([auto(A, 1010)]);
    o = resolveBid(nextR(o), max(A, 8000));
    expect(o).toEqual({ rows: [auto(A, 5000)], price: 5000, leader: A, leaderMax: 8000 });
    // Raising again above the reserve writes nothing (the price is at the reserve already).
    expect(resolveBid(nextR(o), max(A, 9000))).toEqual({ rows: [], price: 5000, leader: A, leaderMax: 9000 });
  });

  it('manual bids are taken as typed: B bids 2,000 (not met), C bids 5,000 (met)', () => {
    let o = resolveBid(withR(1000), manual(B, 2000));
    expect(o).toEqual({ rows: [typed(B, 2000)], price: 2000, leader: B, leaderMax: null });
    o = resolveBid(nextR(o), manual(C, 5000));
    expect(o).toEqual({ rows: [typed(C, 5000)], price: 5000, leader: C, leaderMax: null, outbid: B });
  });

  it('a leader without a maximum who sets one at or above the reserve bids the reserve; below it, no row', () => {
    expect(resolveBid(withR(2000, B), max(B, 4000))).toEqual({ rows: [], price: 2000, leader: B, leaderMax: 4000 });
    expect(resolveBid(withR(2000, B), max(B, 5000))).toEqual({ rows: [auto(B, 5000)], price: 5000, leader: B, leaderMax: 5000 });
  });

  it('N ≥ T + 10 with N reaching the reserve: the leader at T, then the newcomer at the reserve (never above N)', () => {
    expect(resolveBid(withR(1010, A, 3000), max(B, 7000))).toEqual({
      rows: [auto(A, 3000), auto(B, 5000)],
      price: 5000,
      leader: B,
      leaderMax: 7000,
      beaten: { bidder: A, max: 3000 },
    });
    // N below the reserve: the ordinary T + 10.
    expect(resolveBid(withR(1010, A, 3000), max(B, 4000)).rows).toEqual([auto(A, 3000), auto(B, 3010)]);
    // T < N < T + 10 with N at the reserve: N itself is the reserve.
    expect(resolveBid(withR(1010, A, 4995), max(B, 5000)).rows).toEqual([auto(A, 4995), auto(B, 5000)]);
  });

  it('refusals do not write the reserve row, and the invariant holds after every accepted action', () => {
    expect(resolveBid(withR(1010, A, 3000), max(A, 2000))).toMatchObject({ rows: [], refusal: 'only_raise' });
    expect(resolveBid(withR(1010, A, 3000), manual(A, 6000))).toMatchObject({ rows: [], refusal: 'auto_bid_active' });
    const states = [withR(1000), withR(1010, A, 3000), withR(4000, B), withR(5000, C, 5000), withR(6010, A, 8000)];
    const actions = [max(B, 4990), max(B, 5000), max(B, 9000), manual(B, 4500), manual(B, 5000), max(A, 5000), max(A, 12000), max(C, 6010)];
    for (const s of states) {
      for (const a of actions) {
        const o = resolveBid(s, a);
        if (o.refusal && !o.rows.length) continue;
        if (o.leaderMax !== null && o.leaderMax >= R) expect(o.price).toBeGreaterThanOrEqual(R);
        for (const r of o.rows) if (r.bidder === o.leader && r.auto && o.leaderMax !== null) expect(r.amount).toBeLessThanOrEqual(o.leaderMax);
      }
    }
  });
});
