/**
 * A reference model of one auction under automatic bidding (issue 14, "Automatska ponuda", rules 1–5),
 * written from the text on purpose WITHOUT importing shared/rules/auto-bid.ts: the property and
 * concurrency tests hold the server against it, so a misreading shared by the rules function and the server
 * shows up as a disagreement instead of being copied into the test.
 *
 * The model is sequential (one action after the other, as the server's transactions serialise them) and pure:
 * `apply(state, action)` returns the next state and what the acting user is answered, which rows were written,
 * and who was told what.
 *
 * Issue 25 adds, again from the text alone: "Kupi odmah" (a `buy` action: open, no row yet and a
 * buy-now price → one row at that price, `buy_now`, and the auction has ended; every later action is refused
 * as ended) and the hidden reserve R (a maximum that leads below R and reaches it bids R instead; a leader
 * who sets or raises its maximum to R or above while the price is below R bids R; manual bids as typed), and
 * `close(state)`: sold, unsold, or reserve_not_met (no winner) below R.
 */

/** The steps between amounts (shared/rules/bids.ts says the same; restated here so the model stands alone). */
export const STEP = 10;

/** One row of the history: who, how much, and whether a maximum wrote it. */
export interface ModelRow {
  bidder: number;
  amount: number;
  auto: boolean;
  /** The row of a "Kupi odmah" (only set on that row). */
  buy_now?: true;
}

/**
 * What a user is told (kind `outbid` on the server): `max_beaten` — 'Vaša automatska ponuda od {max} din je
 * nadmašena …', once per beaten maximum; `outbid` — the plain outbid text with the new price, to a leader
 * without a maximum who lost the lead, or to a manual bidder answered at once by an automatic row.
 */
export type ModelNotice = { user: number; kind: 'max_beaten'; max: number } | { user: number; kind: 'outbid'; price: number };

export interface ModelState {
  price: number;
  leader: number | null;
  /** The one active maximum (only the leader can hold one, rule 1); `since` orders maxima in time. */
  max: { owner: number; amount: number; since: number } | null;
  rows: ModelRow[];
  notices: ModelNotice[];
  /** Actions applied so far (the clock of `since`). */
  clock: number;
  /** The seller's hidden reserve and "Kupi odmah" price (null: none). */
  reserve: number | null;
  buyNow: number | null;
  /** A "Kupi odmah" ended the auction. */
  ended: boolean;
}

/** A manual bid (POST /api/bids/) or a maximum (PUT /api/auctions/{id}/auto-bid/: new, raise, same, lower). */
export type ModelAction =
  | { kind: 'bid'; bidder: number; amount: number }
  | { kind: 'max'; bidder: number; amount: number }
  /** "Kupi odmah" (issue 25): at the auction's buy-now price; `amount` is not read (0 by convention). */
  | { kind: 'buy'; bidder: number; amount: number };

export type RefusalCode = 'bid_too_low' | 'auto_bid_active' | 'max_only_raise' | 'auction_ended' | 'buy_now_unavailable';

/** What the acting user is answered, and what the action wrote. */
export interface ModelOutcome {
  /** 201 (bid, buy) / 200 (maximum) when accepted, 400 when refused. */
  status: 200 | 201 | 400;
  refusal?: { code: RefusalCode; current_price: number; min_amount: number };
  /** Rows this action wrote, in order (a refusal can still write one: rule 3, T = X). */
  rows: ModelRow[];
  notices: ModelNotice[];
  /** After the action. */
  price: number;
  bid_count: number;
  leading: boolean;
}

export function initialState(startingPrice: number, options: { reserve?: number | null; buyNow?: number | null } = {}): ModelState {
  return { price: startingPrice, leader: null, max: null, rows: [], notices: [], clock: 0, reserve: options.reserve ?? null, buyNow: options.buyNow ?? null, ended: false };
}

/** How the auction ends when it closes in state `s` (a "Kupi odmah" ended it sold already). */
export function close(s: ModelState): { outcome: 'sold' | 'unsold' | 'reserve_not_met'; winner: number | null } {
  if (s.rows.length === 0) return { outcome: 'unsold', winner: null };
  if (s.reserve !== null && s.price < s.reserve) return { outcome: 'reserve_not_met', winner: null };
  return { outcome: 'sold', winner: s.leader };
}

/** The caller's own active maximum, as GET /api/auctions/{id}/auto-bid/ answers it. */
export function activeMaxOf(s: ModelState, user: number): number | null {
  return s.max && s.max.owner === user ? s.max.amount : null;
}

/** A mutable working copy for one action; `finish` turns it into the outcome. */
class Step {
  readonly rows: ModelRow[] = [];
  readonly notices: ModelNotice[] = [];
  price: number;
  leader: number | null;
  max: ModelState['max'];

  constructor(readonly before: ModelState) {
    this.price = before.price;
    this.leader = before.leader;
    this.max = before.max;
  }

  ended = false;

  write(bidder: number, amount: number, auto: boolean, buyNow = false) {
    // Rule 5, checked on the model itself so a mistake in it cannot pass silently.
    const first = this.before.rows.length + this.rows.length === 0;
    if (first ? amount < this.price + STEP : !(amount > this.price)) throw new Error(`model wrote ${amount} after ${this.price}`);
    this.rows.push(buyNow ? { bidder, amount, auto, buy_now: true } : { bidder, amount, auto });
    this.price = amount;
    this.leader = bidder;
  }

  beat(max: { owner: number; amount: number }) {
    this.notices.push({ user: max.owner, kind: 'max_beaten', max: max.amount });
  }

  outbid(user: number) {
    this.notices.push({ user, kind: 'outbid', price: this.price });
  }

  finish(actor: number, status: ModelOutcome['status'], refusal?: ModelOutcome['refusal']): { state: ModelState; outcome: ModelOutcome } {
    const rows = [...this.before.rows, ...this.rows];
    const state: ModelState = {
      price: this.price,
      leader: this.leader,
      max: this.max,
      rows,
      notices: [...this.before.notices, ...this.notices],
      clock: this.before.clock + 1,
      reserve: this.before.reserve,
      buyNow: this.before.buyNow,
      ended: this.before.ended || this.ended,
    };
    const outcome: ModelOutcome = {
      status,
      ...(refusal ? { refusal } : {}),
      rows: this.rows,
      notices: this.notices,
      price: this.price,
      bid_count: rows.length,
      leading: this.leader === actor,
    };
    return { state, outcome };
  }
}

function refuse(step: Step, actor: number, code: RefusalCode): { state: ModelState; outcome: ModelOutcome } {
  return step.finish(actor, 400, { code, current_price: step.price, min_amount: step.price + STEP });
}

/**
 * The reserve, as the issue words it: a maximum of `max` that is about to lead with a row at `amount` below the
 * reserve bids the reserve instead when it reaches it (never above the maximum).
 */
function atReserve(s: ModelState, max: number, amount: number): number {
  return s.reserve !== null && amount < s.reserve && max >= s.reserve ? s.reserve : amount;
}

/** "Kupi odmah": open, no row yet, a buy-now price, not refused by a rule above. */
function buy(s: ModelState, bidder: number) {
  const step = new Step(s);
  if (s.rows.length > 0 || s.buyNow === null) return refuse(step, bidder, 'buy_now_unavailable');
  step.write(bidder, s.buyNow, false, true);
  step.ended = true;
  return step.finish(bidder, 201);
}

/** Rule 3 (and the spec's plain bid): a manual bid X. */
function manualBid(s: ModelState, bidder: number, x: number) {
  const step = new Step(s);
  // The issue does not order these two refusals; a bid below price + 10 is refused as too low first (the
  // server can tell that from the price alone, before it reads any maximum).
  if (x < s.price + STEP) return refuse(step, bidder, 'bid_too_low');
  if (s.max && s.max.owner === bidder) return refuse(step, bidder, 'auto_bid_active');
  const held = s.max; // held by the leader, who is someone else (checked above)
  if (!held || held.amount < x) {
    const previous = s.leader;
    step.write(bidder, x, false);
    if (held) {
      step.beat(held);
      step.max = null;
    } else if (previous !== null && previous !== bidder) step.outbid(previous);
    return step.finish(bidder, 201);
  }
  const t = held.amount;
  if (t === x) {
    // The earlier maximum wins and amounts never repeat: the leader's row at T, the manual bid refused.
    step.write(held.owner, t, true);
    return refuse(step, bidder, 'bid_too_low');
  }
  step.write(bidder, x, false);
  step.write(held.owner, Math.min(t, x + STEP), true);
  step.outbid(bidder);
  return step.finish(bidder, 201);
}

/** Rules 2 and 4: a maximum N set (or raised, repeated, lowered) by `bidder`. */
function setMax(s: ModelState, bidder: number, n: number) {
  const step = new Step(s);
  const held = s.max;
  if (held && held.owner === bidder) {
    if (n < held.amount) return refuse(step, bidder, 'max_only_raise');
    step.max = { ...held, amount: n }; // raise (or the same again): no row, no event; the time stays
    // … except the leader's row at the reserve, when the raise reaches it while the price is below it.
    if (s.reserve !== null && n >= s.reserve && s.price < s.reserve) step.write(bidder, s.reserve, true);
    return step.finish(bidder, 200);
  }
  if (n < s.price + STEP) return refuse(step, bidder, 'bid_too_low');
  const mine = { owner: bidder, amount: n, since: s.clock };
  if (s.leader === bidder) {
    // The leader without a maximum sets one: no row (its row at the reserve when the maximum reaches it).
    step.max = mine;
    if (s.reserve !== null && n >= s.reserve && s.price < s.reserve) step.write(bidder, s.reserve, true);
    return step.finish(bidder, 200);
  }
  if (!held) {
    const previous = s.leader;
    step.write(bidder, atReserve(s, n, s.price + STEP), true);
    step.max = mine;
    if (previous !== null) step.outbid(previous);
    return step.finish(bidder, 200);
  }
  const t = held.amount;
  if (n > t) {
    // N ≥ T + 10: the leader's row at T (if above the price), then N's owner at T + 10; T < N < T + 10: T, then N.
    if (t > s.price) step.write(held.owner, t, true);
    step.write(bidder, atReserve(s, n, Math.min(n, t + STEP)), true);
    step.beat(held);
    step.max = mine;
    return step.finish(bidder, 200);
  }
  if (n < t) {
    step.write(bidder, n, true);
    step.write(held.owner, atReserve(s, t, Math.min(t, n + STEP)), true);
  } else {
    // N = T: the earlier maximum (the leader's) wins.
    if (n - STEP >= s.price + STEP) step.write(bidder, n - STEP, true);
    step.write(held.owner, t, true);
  }
  step.beat(mine);
  return step.finish(bidder, 200);
}

/** The next state and the answer to one action. */
export function apply(s: ModelState, a: ModelAction): { state: ModelState; outcome: ModelOutcome } {
  // After a "Kupi odmah" every bid, maximum and buy-now gets the ordinary "ended" refusal.
  if (s.ended) return refuse(new Step(s), a.bidder, 'auction_ended');
  if (a.kind === 'buy') return buy(s, a.bidder);
  return a.kind === 'bid' ? manualBid(s, a.bidder, a.amount) : setMax(s, a.bidder, a.amount);
}

/** Applies actions in order; the final state and each outcome. */
export function run(startingPrice: number, actions: ModelAction[], options: { reserve?: number | null; buyNow?: number | null } = {}): { state: ModelState; outcomes: ModelOutcome[] } {
  let state = initialState(startingPrice, options);
  const outcomes: ModelOutcome[] = [];
  for (const a of actions) {
    const r = apply(state, a);
    state = r.state;
    outcomes.push(r.outcome);
  }
  return { state, outcomes };
}

/**
 * Replays a finished history (rows in seq order, as GET /api/bids/{id}/ lists them) through the rules as a
 * checker: every row is above the previous one, a manual row is at least the previous + 10, an automatic
 * row is at least the previous + 10 unless it is capped (then only above it); the price and leader after the
 * last row. Used by the concurrency test, where the actions' order is only known from the rows.
 */
export function replayRows(startingPrice: number, rows: ModelRow[]): { price: number; leader: number | null; problems: string[] } {
  const problems: string[] = [];
  let price = startingPrice;
  let leader: number | null = null;
  const seen = new Set<number>();
  rows.forEach((r, i) => {
    if (seen.has(r.amount)) problems.push(`row ${i + 1}: amount ${r.amount} repeats`);
    seen.add(r.amount);
    if (i === 0 && r.amount < startingPrice + STEP) problems.push(`row 1: ${r.amount} below the start + ${STEP}`);
    if (i > 0 && !(r.amount > price)) problems.push(`row ${i + 1}: ${r.amount} not above ${price}`);
    if (i > 0 && !r.auto && r.amount < price + STEP) problems.push(`row ${i + 1}: manual ${r.amount} below ${price} + ${STEP}`);
    price = r.amount;
    leader = r.bidder;
  });
  return { price, leader, problems };
}
