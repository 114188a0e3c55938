/**
 * Closes auctions when their end_date passes: exactly once each, also for those that ended while the server
 * was down (a sweep runs at start). One timer aims at the next end_date; it never sleeps longer than
 * MAX_WAIT_MS, so auctions created elsewhere (or by another node) are noticed within a second.
 */
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/types';
import { isoAt } from '../../lib/time';
import type { AuctionClosedEvent } from '@shared/schemas/bids';
import { notifySellerEnded, notifyWinner, type NotificationChange } from '../notifications/notifications.service';
import { broadcastAuctionClosed, broadcastNotificationChanges } from '../../realtime/broadcast';
import { IDEMPOTENCY_TTL_MS, pruneIdempotencyKeys } from '../bids/bids.repository';

const MAX_WAIT_MS = 1000;
/** Idempotency keys older than their TTL are deleted at start and then at most this often. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;
const BATCH = 100;

interface Closed {
  event: AuctionClosedEvent;
  notifications: NotificationChange[];
}

function dueAuctionIds(db: DbOrTx, now: string): Promise<number[]> {
  return db
    .selectFrom('auctions')
    .select('id')
    .where('status', '=', 'active')
    .where('end_date', '<=', now)
    .orderBy('end_date', 'asc')
    .limit(BATCH)
    .execute()
    .then((rows) => rows.map((r) => r.id));
}

async function nextEndDate(db: DbOrTx): Promise<string | null> {
  const row = await db
    .selectFrom('auctions')
    .select((eb) => eb.fn.min('end_date').as('next'))
    .where('status', '=', 'active')
    .executeTakeFirst();
  return (row?.next as string | null | undefined) ?? null;
}

/**
 * Closes one auction if it is still active and due at `nowMs`. The conditional UPDATE makes this
 * idempotent: only the call that flips the row notifies; every other call (another node, a second
 * sweep) changes nothing and returns null.
 */
export async function closeAuction(ctx: AppContext, auctionId: number, nowMs: number = Date.now()): Promise<Closed | null> {
  const now = isoAt(nowMs);
  return ctx.db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('auctions')
      .set((eb) => ({
        status: 'ended' as const,
        closed_at: now,
        seq: eb('seq', '+', 1),
        winner_id: eb
          .selectFrom('bids')
          .select('bids.bidder_id')
          .whereRef('bids.auction_id', '=', 'auctions.id')
          .orderBy('bids.amount', 'desc')
          .limit(1),
      }))
      .where('id', '=', auctionId)
      .where('status', '=', 'active')
      .where('end_date', '<=', now)
      .returning(['id', 'title', 'seller_id', 'winner_id', 'current_price', 'phone_number', 'seq', 'end_date'])
      .executeTakeFirst();
    if (!row) return null;

    const ref = { id: row.id, title: row.title };
    const seller = await tx
      .selectFrom('users')
      .select(['id', 'first_name', 'phone_number'])
      .where('id', '=', row.seller_id)
      .executeTakeFirstOrThrow();
    const winner = row.winner_id
      ? await tx
          .selectFrom('users')
          .select(['id', 'first_name', 'email', 'phone_number'])
          .where('id', '=', row.winner_id)
          .executeTakeFirst()
      : undefined;
    const notifications: NotificationChange[] = [];
    if (winner) {
      notifications.push(
        await notifyWinner(tx, winner.id, ref, row.current_price, { name: seller.first_name, phone: row.phone_number || seller.phone_number }, now),
      );
    }
    notifications.push(
      await notifySellerEnded(
        tx,
        seller.id,
        ref,
        row.current_price,
        winner ? { name: winner.first_name, email: winner.email, phone: winner.phone_number } : null,
        now,
      ),
    );
    const event: AuctionClosedEvent = {
      auction_id: row.id,
      seq: row.seq,
      status: 'ended',
      winner_id: row.winner_id,
      final_price: row.current_price,
      end_date: row.end_date,
    };
    return { event, notifications };
  });
}

/** Closes every auction due at `nowMs`, broadcasting each after its commit. Returns how many it closed. */
export async function closeDueAuctions(ctx: AppContext, nowMs: number = Date.now()): Promise<number> {
  let closed = 0;
  for (;;) {
    const ids = await dueAuctionIds(ctx.db, isoAt(nowMs));
    for (const id of ids) {
      const result = await closeAuction(ctx, id, nowMs);
      if (!result) continue;
      closed += 1;
      broadcastAuctionClosed(ctx, result.event);
      broadcastNotificationChanges(ctx, result.notifications);
    }
    if (ids.length < BATCH) return closed;
  }
}

const schedulers = new WeakMap<AppContext, () => void>();

/** Wakes the closer now (after a bid moved an end, or an auction was created): it re-aims its timer. */
export function rearmClosing(ctx: AppContext): void {
  schedulers.get(ctx)?.();
}

/** Starts the closer: a sweep now, then one timer aimed at the next end_date. Returns stop(). */
export function startClosingJob(ctx: AppContext): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running = false;
  let again = false;
  let prunedAt = 0;

  const arm = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void run(), Math.max(0, Math.min(delay, MAX_WAIT_MS)));
    timer.unref();
  };

  const run = async (): Promise<void> => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await closeDueAuctions(ctx);
      } while (again && !stopped);
      if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = Date.now();
        await pruneIdempotencyKeys(ctx.db, isoAt(prunedAt - IDEMPOTENCY_TTL_MS));
      }
      const next = await nextEndDate(ctx.db);
      // +5 ms: a timer may fire a hair early, and end_date itself still counts as open for bids until passed.
      arm(next ? Date.parse(next) - Date.now() + 5 : MAX_WAIT_MS);
    } catch (err) {
      if (!stopped) ctx.logger.error({ err }, 'closing auctions failed');
      arm(MAX_WAIT_MS);
    } finally {
      running = false;
    }
  };

  schedulers.set(ctx, () => void run());
  void run();
  return () => {
    stopped = true;
    clearTimeout(timer);
    schedulers.delete(ctx);
  };
}
