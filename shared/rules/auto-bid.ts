import { MIN_BID_INCREMENT } from './limits';

/**
 * Automatic bidding (issue 14; the rules with worked examples are in docs/bidding.md). One pure function,
 * resolveBid(), decides what a manual bid or a new maximum does to an auction; the server calls it inside
 * the bid transaction after locking the auction row, then writes the rows it returns in order.
 *
 * Checks that are not about amounts (logged in, verified, the seller, the auction open) are the caller's;
 * resolveBid assumes the auction takes bids.
 */

/** An open auction as the rules see it. Only the leader can hold an active (unbeaten) maximum. */
export interface AutoBidState {
  /** current_price: the last row's amount, or the starting price without bids. */
  price: number;
  /** The bidder of the last row; null without bids. */
  leader: number | null;
  /** The leader's active maximum, null when the leader has none (or there is no leader). Never below price. */
  leaderMax: number | null;
  /**
   * The seller's hidden reserve (issue 25), null or absent without one. Invariant: while the leader's active
   * maximum is at or above it, the price is at or above it.
   */
  reserve?: number | null;
}

/** A manual bid of `amount` ('manual'), or setting / raising a maximum of `amount` ('max'), by `bidder`. */
export interface AutoBidAction {
  kind: 'max' | 'manual';
  bidder: number;
  amount: number;
}

/** One bid row to write, in order: each its own seq, `bid:placed`, bid_count and soft-close extension. */
export interface AutoBidRow {
  bidder: number;
  amount: number;
  /** Written by a maximum (every row of a 'max' action and every answer of the leader's maximum). */
  auto: boolean;
}

/**
 * What an action does. `rows` are written even when `refusal` is set (a manual bid equal to the leader's
 * maximum: the leader's row at T is written, then the bid is refused). `price`, `leader` and `leaderMax`
 * are the state afterwards; a refusal without rows leaves the state as it was.
 */
export interface AutoBidOutcome {
  rows: AutoBidRow[];
  /**
   * too_low: below price + 10, or a manual bid equal to the leader's maximum; auto_bid_active: a manual bid
   * by a bidder who holds the active maximum; only_raise: the leader set a maximum below its active one.
   */
  refusal?: 'too_low' | 'auto_bid_active' | 'only_raise';
  /** With a refusal: the smallest bid the auction takes now, = price (after the rows) + 10. */
  minAmount?: number;
  price: number;
  leader: number | null;
  leaderMax: number | null;
  /** A maximum beaten by this action (the old leader's, or the newcomer's own answered at once): told once. */
  beaten?: { bidder: number; max: number };
  /** A bidder to tell with the plain outbid text: the previous leader without a maximum, or a manual bid answered. */
  outbid?: number;
}

const refuse = (s: AutoBidState, refusal: NonNullable<AutoBidOutcome['refusal']>): AutoBidOutcome => ({
  rows: [],
  refusal,
  minAmount: s.price + MIN_BID_INCREMENT,
  price: s.price,
  leader: s.leader,
  leaderMax: s.leaderMax,
});

/**
 * Rules 1–5 of automatic bidding (docs/bidding.md) for one action on an open auction, with S = state,
 * A = action, T = S.leaderMax, step = 10:
 *
 * - A.amount < price + 10 → refusal 'too_low' (except the leader who holds T raising it: rule 4).
 * - max by the leader: T null → stores the maximum, no row; N > T raises, N = T answers as accepted (no row);
 *   N < T → 'only_raise'.
 * - max N by another bidder (rule 2): no T → row (bidder, price + 10); N ≥ T + 10 → (leader, T) if T > price,
 *   then (bidder, T + 10); T < N < T + 10 → (leader, T), (bidder, N); N < T → (bidder, N), (leader,
 *   min(T, N + 10)); N = T → (bidder, N − 10) if ≥ price + 10, then (leader, T). All rows auto.
 * - manual X (rule 3): by the holder of T → 'auto_bid_active'; no T or the bidder leads → (bidder, X);
 *   T ≥ X + 10 → (bidder, X), (leader, X + 10 auto); X < T < X + 10 → (bidder, X), (leader, T auto);
 *   T = X → (leader, T auto) and 'too_low' with minAmount T + 10; T < X → (bidder, X), T beaten.
 *
 * Notifications: `beaten` (the maximum's owner, once), `outbid` (plain text). Never per row.
 *
 * The reserve R (issue 25) is applied last, by meetReserve().
 */
export function resolveBid(s: AutoBidState, a: AutoBidAction): AutoBidOutcome {
  return meetReserve(s.reserve ?? null, withoutReserve(s, a));
}

/**
 * The reserve's invariant (docs/bidding.md, "The reserve"): while the leader's active maximum is at or above
 * R, the price is at or above R. When the rules leave a leader holding a maximum ≥ R at a price below R,
 * either its last (automatic) row is placed at R instead (a maximum that leads and reaches R; R ≤ its
 * maximum, so never above it), or, when the request wrote no row (the leader set or raised its own maximum),
 * the leader's automatic row at R is written. Manual bids are taken as typed: a manual leader holds no maximum.
 */
function meetReserve(R: number | null, o: AutoBidOutcome): AutoBidOutcome {
  if (R === null || o.leader === null || o.leaderMax === null || o.leaderMax < R || o.price >= R) return o;
  if (o.refusal) return o; // a refusal leaves the state as it was, and the state kept the invariant
  const last = o.rows.at(-1);
  const atR: AutoBidRow = { bidder: o.leader, amount: R, auto: true };
  if (!last) return { ...o, rows: [atR], price: R };
  // Only the leader's own automatic row can end a request that leaves it holding a maximum.
  if (last.bidder !== o.leader || !last.auto) return o;
  return { ...o, rows: [...o.rows.slice(0, -1), atR], price: R };
}

function withoutReserve(s: AutoBidState, a: AutoBidAction): AutoBidOutcome {
  const T = s.leader !== null ? s.leaderMax : null;
  const same = { price: s.price, leader: s.leader, leaderMax: s.leaderMax };
  if (a.kind === 'max' && a.bidder === s.leader) {
    if (T === null) return a.amount < s.price + MIN_BID_INCREMENT ? refuse(s, 'too_low') : { rows: [], ...same, leaderMax: a.amount };
    return a.amount < T ? refuse(s, 'only_raise') : { rows: [], ...same, leaderMax: a.amount };
  }
  if (a.amount < s.price + MIN_BID_INCREMENT) return refuse(s, 'too_low');
  if (a.kind === 'manual') return manual(s, a, T);
  return newMaximum(s, a, T);
}

function manual(s: AutoBidState, a: AutoBidAction, T: number | null): AutoBidOutcome {
  const X = a.amount;
  const mine: AutoBidRow = { bidder: a.bidder, amount: X, auto: false };
  if (T === null || s.leader === null || s.leader === a.bidder) {
    if (T !== null) return refuse(s, 'auto_bid_active');
    const outbid = s.leader !== null && s.leader !== a.bidder ? s.leader : undefined;
    return { rows: [mine], price: X, leader: a.bidder, leaderMax: null, ...(outbid !== undefined && { outbid }) };
  }
  const leader = s.leader;
  if (T === X) {
    return { rows: [{ bidder: leader, amount: T, auto: true }], refusal: 'too_low', minAmount: T + MIN_BID_INCREMENT, price: T, leader, leaderMax: T };
  }
  if (T < X) return { rows: [mine], price: X, leader: a.bidder, leaderMax: null, beaten: { bidder: leader, max: T } };
  const answer = Math.min(T, X + MIN_BID_INCREMENT);
  return { rows: [mine, { bidder: leader, amount: answer, auto: true }], price: answer, leader, leaderMax: T, outbid: a.bidder };
}

function newMaximum(s: AutoBidState, a: AutoBidAction, T: number | null): AutoBidOutcome {
  const N = a.amount;
  const row = (bidder: number, amount: number): AutoBidRow => ({ bidder, amount, auto: true });
  if (T === null || s.leader === null) {
    const outbid = s.leader !== null ? { outbid: s.leader } : {};
    const price = s.price + MIN_BID_INCREMENT;
    return { rows: [row(a.bidder, price)], price, leader: a.bidder, leaderMax: N, ...outbid };
  }
  const leader = s.leader;
  const leaderAt = T > s.price ? [row(leader, T)] : [];
  if (N >= T + MIN_BID_INCREMENT) {
    const price = T + MIN_BID_INCREMENT;
    return { rows: [...leaderAt, row(a.bidder, price)], price, leader: a.bidder, leaderMax: N, beaten: { bidder: leader, max: T } };
  }
  if (N > T) return { rows: [...leaderAt, row(a.bidder, N)], price: N, leader: a.bidder, leaderMax: N, beaten: { bidder: leader, max: T } };
  const beaten = { bidder: a.bidder, max: N };
  if (N < T) {
    const answer = Math.min(T, N + MIN_BID_INCREMENT);
    return { rows: [row(a.bidder, N), row(leader, answer)], price: answer, leader, leaderMax: T, beaten };
  }
  // N = T: the earlier maximum (the leader's) wins; the newcomer's row only where it still clears price + 10.
  const first = N - MIN_BID_INCREMENT >= s.price + MIN_BID_INCREMENT ? [row(a.bidder, N - MIN_BID_INCREMENT)] : [];
  return { rows: [...first, row(leader, T)], price: T, leader, leaderMax: T, beaten };
}
