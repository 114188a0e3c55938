/**
 * This node's bids and maxima on one auction take turns in a lane before they take the auction's row lock
 * (docs/performance.md, B1pg; docs/bidding.md). On a hot auction a burst of bids all pass the gate at the old
 * price; without lanes each of them would hold a pooled PostgreSQL connection while it waits for the row lock,
 * and then hold the lock for a round trip only to be refused as too low. In a lane they wait in memory, and a
 * bid whose turn comes after the lane saw a price it cannot beat is refused from that price, without the
 * database.
 *
 * Why that refusal is the rules' answer: the price a lane keeps was read under the row lock during this
 * burst, and an auction's price only rises, so a bid below it + 10 is below the price now + 10, and the rules
 * refuse that as too low before they look at anything else (shared/rules/auto-bid.ts).
 * The seller and the end were already checked by the gate. The row lock stays what makes bids take turns
 * (on several nodes too): a lane only orders this node's own, and only for a while (createBidLanes).
 *
 * A lane lives while it has requests in it; the next burst starts a new one.
 */
import type { BidLanes, Lane } from '../../context';

export type { BidLanes, Lane };

interface LaneState extends Lane {
  tail: Promise<void>;
  inside: number;
}

/** How long a request waits for the one before it in its lane at most (see createBidLanes). */
export const LANE_MAX_WAIT_MS = 50;

/**
 * A lane orders, it never holds a request long: after `maxWaitMs` behind a turn that has not ended (a
 * transaction stuck behind another node's row lock), the request goes to the row lock anyway and waits there
 * in PostgreSQL's queue, as it would without lanes. So a bid made before the end is never kept out of the
 * row's queue while a closer on another node joins it; on this node the closer takes its turn in the lane
 * (closing.ts), behind the bids that came before it.
 */
export function createBidLanes(maxWaitMs = LANE_MAX_WAIT_MS): BidLanes {
  const lanes = new Map<number, LaneState>();
  return {
    get size() {
      return lanes.size;
    },
    inside: (auctionId) => lanes.get(auctionId)?.inside ?? 0,
    async run<T>(auctionId: number, turn: (lane: Lane) => Promise<T>): Promise<T> {
      let lane = lanes.get(auctionId);
      if (!lane) {
        lane = { price: null, tail: Promise.resolve(), inside: 0 };
        lanes.set(auctionId, lane);
      }
      const before = lane.inside++ > 0 ? lane.tail : null;
      let done!: () => void;
      lane.tail = new Promise<void>((resolve) => (done = resolve));
      try {
        if (before) await waitAtMost(before, maxWaitMs);
        return await turn(lane);
      } finally {
        done();
        if (--lane.inside === 0) lanes.delete(auctionId);
      }
    },
  };
}

function waitAtMost(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}

/** Records a price read under the row lock, for the bids still waiting in the lane. */
export function sawPrice(lane: Lane, price: number | undefined): void {
  if (price !== undefined && (lane.price === null || price > lane.price)) lane.price = price;
}
