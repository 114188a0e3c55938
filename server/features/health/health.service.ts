import type { AppContext } from '../../context';
import type { HealthResponse } from '@shared/schemas/health';
import { withTimeout } from '../../lib/time';
import { pingDatabase } from './health.repository';

/** A database that takes longer than this to answer `select 1` counts as down. */
const DATABASE_TIMEOUT_MS = 2_000;

/** Whether this node can serve: it is not draining, its database answers, and Redis too when it has one. */
export async function checkHealth(ctx: AppContext): Promise<HealthResponse> {
  const [database, redis] = await Promise.all([
    withTimeout(pingDatabase(ctx.db), DATABASE_TIMEOUT_MS, 'database ping timeout').then(
      () => 'ok' as const,
      (err: unknown) => {
        ctx.logger.warn({ err }, 'health: database did not answer');
        return 'down' as const;
      },
    ),
    ctx.redis ? ctx.redis.ping().then((ok) => (ok ? ('ok' as const) : ('down' as const))) : Promise.resolve('off' as const),
  ]);
  if (ctx.lifecycle.draining) return { status: 'unavailable', database, redis, draining: true };
  return { status: database === 'ok' && redis !== 'down' ? 'ok' : 'unavailable', database, redis };
}
