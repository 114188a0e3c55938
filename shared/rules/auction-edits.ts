/**
 * Relisting and editing (issue 26), decided once here: the server calls these under the auction's lock, the
 * client to show 'Ponovo postavi' and 'Izmeni' only where they will be taken.
 */
import type { AuctionOutcome } from './buy-now';

/** At most this many relists in a chain: an auction whose relist_count is this is not relisted again. */
export const MAX_RELISTS = 9;

/** What the rules read of an auction. */
export interface EditState {
  status: 'active' | 'ended';
  end_date: string;
  bid_count: number;
}

/** Open (not marked ended, end date not passed) and without a bid: the seller may still change it. */
export function isEditable(a: EditState, now: number): boolean {
  return a.status === 'active' && Date.parse(a.end_date) > now && a.bid_count === 0;
}

export type RelistRefusal = 'not_relistable' | 'already_relisted' | 'relist_limit';

/** Why an ended auction cannot be relisted (null: it can): only unsold ones, once each, nine in a chain. */
export function relistRefusal(a: { outcome: AuctionOutcome | null; relisted_as: number | null; relist_count: number }): RelistRefusal | null {
  if (a.outcome !== 'unsold' && a.outcome !== 'reserve_not_met') return 'not_relistable';
  if (a.relisted_as !== null) return 'already_relisted';
  if (a.relist_count >= MAX_RELISTS) return 'relist_limit';
  return null;
}
