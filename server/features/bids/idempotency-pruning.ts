import type { AppContext } from '../../context';
import { isoAt } from '../../lib/time';
import { IDEMPOTENCY_TTL_MS, pruneIdempotencyKeys } from './bids.repository';

/**
 * An expired key that comes back is already a new bid (findIdempotentAnswer deletes it first); this frees
 * the rows of the keys that never come back.
 */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** Deletes Idempotency-Key answers older than their TTL now, then every PRUNE_EVERY_MS. Returns stop(). */
export function startIdempotencyKeyPruning(ctx: AppContext): () => void {
  let stopped = false;
  const prune = () => {
    pruneIdempotencyKeys(ctx.db, isoAt(Date.now() - IDEMPOTENCY_TTL_MS)).catch((err: unknown) => {
      if (!stopped) ctx.logger.error({ err }, 'pruning idempotency keys failed');
    });
  };
  prune();
  const timer = setInterval(prune, PRUNE_EVERY_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
