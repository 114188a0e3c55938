/**
 * Closing an auction when its end_date has passed: exactly once each, also for those that ended while the
 * server was down. The timer that calls closeDueAuctions() is closing.scheduler.ts.
 */
import type { AppContext } from '../../context';
import { isoAt } from '../../lib/time';
import { notificationEvents, type DomainEvent } from '../../events';
import { unitOfWork } from '../../unit-of-work';
import { findDueAuctionIds, markEnded, type EndedAuction } from './closing.repository';
import { notifyEnded } from './closing.notifications';

const BATCH = 100;

/**
 * Closes one auction if it is still active and due at `nowMs`. The conditional UPDATE makes this
 * idempotent: only the call that flips the row notifies; every other call (another node, a second
 * sweep) changes nothing and returns null. Otherwise returns `auction:closed` and the notifications, which the
 * unit of work has published after the commit.
 */
export async function closeAuction(ctx: AppContext, auctionId: number, nowMs: number = Date.now()): Promise<DomainEvent[] | null> {
  const now = isoAt(nowMs);
  // Behind the bids this node has queued on the auction (features/bids/bid-lanes.ts): they were made before
  // the end, and they are decided before it closes.
  return ctx.bidLanes.run(auctionId, () => closeLocked(ctx, auctionId, now));
}

function closeLocked(ctx: AppContext, auctionId: number, now: string): Promise<DomainEvent[] | null> {
  return unitOfWork(ctx, async (tx): Promise<DomainEvent[] | null> => {
    const row = await markEnded(tx, auctionId, now);
    if (!row) return null;
    ctx.metrics.auctionClosed((Date.now() - Date.parse(row.end_date)) / 1000);
    const notifications = await notifyEnded(tx, row, now);
    return [closedEvent(row), ...notificationEvents(notifications)];
  }, { events: (events) => events });
}

/** `auction:closed` of an ended auction (the closer's, or a "Kupi odmah"'s): never the reserve itself. */
export function closedEvent(row: Pick<EndedAuction, 'id' | 'seq' | 'winner_id' | 'current_price' | 'end_date' | 'outcome'>): DomainEvent {
  return {
    type: 'auction:closed',
    payload: { auction_id: row.id, seq: row.seq, status: 'ended', winner_id: row.winner_id, final_price: row.current_price, end_date: row.end_date, outcome: row.outcome },
  };
}

/**
 * Closes every auction due at `nowMs`, each published after its commit. Returns how many it closed.
 * `stopped()` is asked between two auctions (never inside a close): once it says yes, the rest is left for
 * the next start, or for another node's closer (a shutdown, lifecycle.ts).
 */
export async function closeDueAuctions(ctx: AppContext, nowMs: number = Date.now(), stopped: () => boolean = () => false): Promise<number> {
  let closed = 0;
  for (;;) {
    const ids = await findDueAuctionIds(ctx.db, isoAt(nowMs), BATCH);
    for (const id of ids) {
      if (stopped()) return closed;
      if (await closeAuction(ctx, id, nowMs)) closed += 1;
    }
    if (ids.length < BATCH) return closed;
  }
}
