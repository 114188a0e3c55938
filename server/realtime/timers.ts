/** The realtime layer's timers: the periodic session sweep and the re-check a moment after dropUser(). */
import type { Logger } from 'pino';
import type { SessionRechecks } from './demote';
import { settle } from '../lib/maybe-async';

/** The second look of dropUser(), for callers that write the session/user change after calling it. */
const RECHECK_AFTER_MS = 1000;

export interface SessionTimers {
  /** Re-checks `userId`'s sockets once more, RECHECK_AFTER_MS from now. */
  recheckLater(userId: number): void;
  stop(): void;
}

export function startSessionTimers(rechecks: SessionRechecks, logger: Logger, sweepMs: number): SessionTimers {
  const sweep = setInterval(() => {
    settle(rechecks.all, (err, n) => {
      if (err) logger.error({ err }, 'socket session sweep failed');
      else if (n) logger.info({ demoted: n }, 'sockets of ended sessions left their user rooms');
    });
  }, sweepMs);
  sweep.unref();
  const pending = new Set<NodeJS.Timeout>();
  return {
    recheckLater(userId) {
      const t = setTimeout(() => {
        pending.delete(t);
        settle(
          () => rechecks.user(userId),
          (err) => {
            if (err) logger.error({ err }, 'socket re-check failed');
          },
        );
      }, RECHECK_AFTER_MS);
      t.unref();
      pending.add(t);
    },
    stop() {
      clearInterval(sweep);
      for (const t of pending) clearTimeout(t);
      pending.clear();
    },
  };
}
