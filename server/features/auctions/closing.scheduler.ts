/**
 * The closer's timer: a sweep at start (for auctions that ended, or whose ending-soon window opened, while the
 * server was down), then one timer aimed at the next end_date or the next ending-soon window, whichever comes
 * first. It never sleeps longer than MAX_WAIT_MS, so auctions created elsewhere (or by another node) are
 * noticed within a second.
 */
import type { AppContext } from '../../context';
import { closeDueAuctions } from './closing';
import { sendDueEndingSoon } from './closing.ending-soon';
import { findNextWakeDates } from './closing.repository';

const MAX_WAIT_MS = 1000;

export interface ClosingScheduler {
  /** Wakes the closer now (an auction was created, or a bid moved an end): it re-aims its timer. */
  rearm(): void;
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
        await sendDueEndingSoon(ctx);
      } while (again && !stopped);
      arm(await nextWakeIn(ctx));
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

/** Milliseconds until the next end_date or ending-soon window (MAX_WAIT_MS when there is neither). */
async function nextWakeIn(ctx: AppContext): Promise<number> {
  const { nextEnd, nextUnalerted } = await findNextWakeDates(ctx.db);
  const windowMs = ctx.config.endingSoonSeconds * 1000;
  const at = [nextEnd ? Date.parse(nextEnd) : Infinity, nextUnalerted && windowMs > 0 ? Date.parse(nextUnalerted) - windowMs : Infinity];
  const next = Math.min(...at);
  // +5 ms: a timer may fire a hair early, and end_date itself still counts as open for bids until passed.
  return Number.isFinite(next) ? next - Date.now() + 5 : MAX_WAIT_MS;
}
