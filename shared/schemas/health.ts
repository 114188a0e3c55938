import { z } from 'zod';

/**
 * What each engine answered; `off` for Redis on a node without REDIS_URL. `draining: true` (absent otherwise):
 * the node is shutting down (SIGTERM/SIGINT) and still serves for SHUTDOWN_DRAIN_SECONDS; status is then
 * `unavailable` (503) whatever the engines say, so that a load balancer moves traffic away before the node
 * stops accepting.
 */
export const HealthResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'down']),
  redis: z.enum(['ok', 'down', 'off']),
  draining: z.literal(true).optional(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
