import { z } from 'zod';

/**
 * Every error answer (server/http/errors.ts, design.md §5): the Serbian message twice (`message` for older
 * clients), a machine-readable `code`, then per request field its list of messages and, where an endpoint
 * says so, other values a client needs (numbers, e.g. a refused bid's `min_amount`).
 */
export const ApiErrorResponse = z
  .object({ detail: z.string(), message: z.string(), code: z.string() })
  .catchall(z.union([z.array(z.string()), z.number()]));
export type ApiErrorResponse = z.infer<typeof ApiErrorResponse>;
