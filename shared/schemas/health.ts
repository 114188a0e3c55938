import { z } from 'zod';

/** What each engine answered; `off` for Redis on a node without REDIS_URL. */
export const HealthResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'down']),
  redis: z.enum(['ok', 'down', 'off']),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
