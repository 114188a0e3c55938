/**
 * The closer's timer: a sweep at start (for auctions that ended, or whose ending-soon window opened, while the
 * server was down), then one timer aimed at the next end_date or the next ending-soon window, whichever comes
 * first. It never sleeps longer than MAX_WAIT_MS, so auctions created elsewhere (or by another node) are
 * noticed within a second.
 */
import type { AppContext, Closer } from '../../context';
import { closeDueAuctions } from './closing';
import { sendDueEndingSoon } from './closing.ending-soon';
import { findNextWakeDates } from './closing.repository';

const MAX_WAIT_MS = 1000;

/** The closer (ctx.closer) and what only the app's shell calls: start. */
export interface ClosingScheduler extends Closer {
  /** Starts the closer on `ctx`: a sweep now, then the timer. Returns stop(). */
  start(ctx: AppContext): () => void;
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
      return () => {
        wake = undefined;
        timer.stop();
      };
    },
  };
}

function closingTimer(ctx: AppContext): { run(): void; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running = false;
  let again = false;
  // When the next ending-soon window opens, as last read (-Infinity: not read yet). An idle tick skips the
  // alerts' query until then; the read after each pass (every tick) notices a nearer one within a second.
  let windowAt = -Infinity;

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
        if (Date.now() >= windowAt) await sendDueEndingSoon(ctx);
      } while (again && !stopped);
      const next = await nextWake(ctx);
      windowAt = next.windowAt;
      const at = Math.min(next.endAt, next.windowAt);
      // +5 ms: a timer may fire a hair early, and end_date itself still counts as open for bids until passed.
      arm(Number.isFinite(at) ? at - Date.now() + 5 : MAX_WAIT_MS);
    } catch (err) {
      if (!stopped) ctx.logger.error({ err }, 'closing auctions failed');
      arm(MAX_WAIT_MS);
    } finally {
      running = false;
    }
  };

  return {
    run: () => void run(),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
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
