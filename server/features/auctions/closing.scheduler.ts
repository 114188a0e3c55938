/**
 * The closer's timer: a sweep at start (for auctions that ended, or whose ending-soon window opened, while the
 * server was down), then one timer aimed at the next end_date or the next ending-soon window, whichever comes
 * first. It never sleeps longer than MAX_WAIT_MS, so auctions created elsewhere (or by another node) are
 * noticed within a second.
 */
import type { AppContext, Closer } from '../../context';
import { closeDueAuctions } from './closing';
import { sendDueEndingSoon } from './closing.ending-soon';
import { findNextWakeDates, findOldestDueEnd } from './closing.repository';
import { isoAt } from '../../lib/time';

const MAX_WAIT_MS = 1000;

/** The closer (ctx.closer) and what only the app's shell calls: start. */
export interface ClosingScheduler extends Closer {
  /**
   * Starts the closer on `ctx`: a sweep now, then the timer. Returns stop(), which settles once the pass under
   * way (if any) has finished the auction it was closing: a pass stops between two auctions, never inside a close.
   */
  start(ctx: AppContext): () => Promise<void>;
}

/** One per app (AppContext.closer); rearm() does nothing until start(). */
export function createClosingScheduler(): ClosingScheduler {
  let wake: (() => void) | undefined;
  return {
    rearm: () => wake?.(),
    start(ctx) {
      const timer = closingTimer(ctx);
      wake = timer.run;
      timer.run();
      ctx.metrics.closerLag(async () => {
        const oldest = await findOldestDueEnd(ctx.db, isoAt(Date.now()));
        return oldest ? Math.max(0, (Date.now() - Date.parse(oldest)) / 1000) : 0;
      });
      return () => {
        wake = undefined;
        return timer.stop();
      };
    },
  };
}

function closingTimer(ctx: AppContext): { run(): void; stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let pass: Promise<void> | undefined;
  let again = false;
  // When the next ending-soon window opens, as last read (-Infinity: not read yet). An idle tick skips the
  // alerts' query until then; the read after each pass (every tick) notices a nearer one within a second.
  let windowAt = -Infinity;
  const isStopped = () => stopped;

  const arm = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void run(), Math.max(0, Math.min(delay, MAX_WAIT_MS)));
    timer.unref();
  };

  const sweep = async (): Promise<void> => {
    try {
      do {
        again = false;
        await closeDueAuctions(ctx, Date.now(), isStopped);
        if (!stopped && Date.now() >= windowAt) await sendDueEndingSoon(ctx, Date.now(), isStopped);
      } while (again && !stopped);
      if (stopped) return;
      const next = await nextWake(ctx);
      windowAt = next.windowAt;
      const at = Math.min(next.endAt, next.windowAt);
      // +5 ms: a timer may fire a hair early, and end_date itself still counts as open for bids until passed.
      arm(Number.isFinite(at) ? at - Date.now() + 5 : MAX_WAIT_MS);
    } catch (err) {
      if (!stopped) ctx.logger.error({ err }, 'closing auctions failed');
      arm(MAX_WAIT_MS);
    }
  };

  const run = async (): Promise<void> => {
    if (stopped) return;
    if (pass) {
      again = true;
      return;
    }
    pass = sweep().finally(() => {
      pass = undefined;
    });
  };

  return {
    run: () => void run(),
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await pass;
    },
  };
}

/** When (ms) the next open auction ends and the next ending-soon window opens; Infinity for none. */
async function nextWake(ctx: AppContext): Promise<{ endAt: number; windowAt: number }> {
  const { nextEnd, nextUnalerted } = await findNextWakeDates(ctx.db);
  const windowMs = ctx.config.endingSoonSeconds * 1000;
  return {
    endAt: nextEnd ? Date.parse(nextEnd) : Infinity,
    windowAt: nextUnalerted && windowMs > 0 ? Date.parse(nextUnalerted) - windowMs : Infinity,
  };
}
