/**
 * After a concurrent run: puts the acknowledged requests back into the order the server must have run them
 * in, using only the history (rows in seq order) and the answers, and replays them through the reference
 * model (tests/support/auto-bid-model.ts). The server is right when every row is explained by exactly one
 * acknowledged request whose answer the model gives too, and every acknowledged request finds its place.
 *
 * At each point (k rows explained), the next rows come from one of:
 * - the manual bid whose 201 answer names the row k+1 (its id), with its answering automatic row if any;
 * - a maximum whose 200 answer says bid_count k+1 (it wrote one row, or two ending there);
 * - a manual bid X refused with current_price X (rule 3, T = X: the leader's automatic row at T was written);
 * - a maximum whose 200 answer says bid_count k+2 (it wrote two rows).
 * The candidate must make the model write exactly the next rows of the history and answer what the server
 * answered. Maxima that wrote no row (the leader raising, repeating or setting one) are applied when the count
 * their answer states is reached, smallest first (a maximum can only be raised, so that is their order).
 * Refusals write nothing (except the T = X case above); each must be a refusal the model gives in some state
 * with the price the refusal stated.
 */
import { apply, initialState, type ModelAction, type ModelOutcome, type ModelRow, type ModelState } from './auto-bid-model';

/** One answered request of the load: what was sent and what came back. */
export interface Ack {
  action: ModelAction;
  status: number;
  /** 201: the manual bid's own row id. */
  rowId?: number;
  price?: number;
  bid_count?: number;
  leading?: boolean;
  code?: string;
  current_price?: number;
  min_amount?: number;
  /** When it was sent and answered (ms, performance.now()), for reading a failure. */
  at?: [number, number];
}

export interface ReplayResult {
  state: ModelState;
  /** Every state the replay passed through (to place refusals). */
  states: ModelState[];
  problems: string[];
  /** Acknowledged requests used, in replay order. */
  order: Ack[];
}

function answerMatches(a: Ack, o: ModelOutcome): boolean {
  if (a.status !== o.status) return false;
  if (a.status === 400) return a.code === o.refusal?.code && a.current_price === o.refusal?.current_price && a.min_amount === o.refusal?.min_amount;
  return a.price === o.price && a.bid_count === o.bid_count && a.leading === o.leading;
}

const sameRows = (a: ModelRow[], b: ModelRow[]) => a.length === b.length && a.every((r, i) => r.bidder === b[i].bidder && r.amount === b[i].amount && r.auto === b[i].auto);

/** Replays `acks` against `history` (rows with their ids, in seq order) from `startingPrice`. */
export function replayAcks(startingPrice: number, history: (ModelRow & { id: number })[], acks: Ack[]): ReplayResult {
  const problems: string[] = [];
  const posOf = new Map(history.map((r, i) => [r.id, i + 1]));
  const used = new Set<Ack>();
  const accepted = acks.filter((a) => a.status === 200 || a.status === 201);
  const byCount = new Map<number, Ack[]>();
  for (const a of accepted) {
    if (a.status === 200) byCount.set(a.bid_count!, [...(byCount.get(a.bid_count!) ?? []), a]);
  }
  const manualAt = new Map<number, Ack>();
  for (const a of accepted) if (a.status === 201) manualAt.set(posOf.get(a.rowId!) ?? -1, a);
  const equalRefusals = acks.filter((a) => a.status === 400 && a.code === 'bid_too_low' && a.action.kind === 'bid' && a.current_price === a.action.amount);

  let state = initialState(startingPrice);
  const states: ModelState[] = [state];
  const order: Ack[] = [];
  const take = (a: Ack, next: ModelState) => {
    used.add(a);
    order.push(a);
    state = next;
    states.push(state);
  };
  /** Applies `a` if the model writes exactly the next history rows and answers as the server did. */
  const tryAck = (a: Ack): boolean => {
    if (used.has(a)) return false;
    const { state: next, outcome } = apply(state, a.action);
    const k = state.rows.length;
    if (!outcome.rows.length || !sameRows(outcome.rows, history.slice(k, k + outcome.rows.length))) return false;
    if (!answerMatches(a, outcome)) return false;
    take(a, next);
    return true;
  };
  const rowless = (count: number) => {
    const waiting = (byCount.get(count) ?? []).filter((a) => !used.has(a)).sort((x, y) => x.action.amount - y.action.amount);
    for (const a of waiting) {
      const { state: next, outcome } = apply(state, a.action);
      if (outcome.rows.length === 0 && answerMatches(a, outcome)) take(a, next);
    }
  };

  rowless(0);
  while (state.rows.length < history.length) {
    const k = state.rows.length;
    // Requests that ended at row k + 1 first: a refusal that states the price of row k + 1 saw it as the last
    // row, so a maximum whose two rows would end at k + 2 (the same rows) cannot have written it.
    const candidates = [
      ...(manualAt.has(k + 1) ? [manualAt.get(k + 1)!] : []),
      ...(byCount.get(k + 1) ?? []).slice().sort((x, y) => Number(x.leading) - Number(y.leading) || x.action.amount - y.action.amount),
      ...equalRefusals.filter((a) => a.current_price === history[k].amount),
      ...(byCount.get(k + 2) ?? []),
    ];
    if (!candidates.some(tryAck)) {
      const row = history[k];
      problems.push(`row ${k + 1} (bidder ${row.bidder}, ${row.amount}${row.auto ? ', auto' : ''}) is explained by no acknowledged request (${candidates.length} candidates)`);
      break;
    }
    rowless(state.rows.length);
  }
  for (const a of accepted) if (!used.has(a)) problems.push(`acknowledged but not in the history as the model has it: ${JSON.stringify(a)}`);
  checkRefusals(acks, states, used, problems);
  return { state, states, problems, order };
}

/** Every refusal not used as a row writer is one the model gives in some state at the price it stated. */
function checkRefusals(acks: Ack[], states: ModelState[], used: Set<Ack>, problems: string[]) {
  const byPrice = new Map<number, ModelState[]>();
  for (const s of states) byPrice.set(s.price, [...(byPrice.get(s.price) ?? []), s]);
  for (const a of acks) {
    if (a.status !== 400 || used.has(a)) continue;
    const candidates = byPrice.get(a.current_price!) ?? [];
    const explained = candidates.some((s) => {
      const { outcome } = apply(s, a.action);
      return outcome.rows.length === 0 && answerMatches(a, outcome);
    });
    if (!explained) problems.push(`refusal the model would not give at price ${a.current_price}: ${JSON.stringify(a)}`);
  }
}
