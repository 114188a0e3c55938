import { z } from 'zod';

/**
 * GET /api/openapi.json (shared/openapi.ts builds it): an OpenAPI 3.1 document. Only its top is described
 * here; what it holds is OpenAPI's own format, checked by an OpenAPI validator in tests/server/openapi.test.ts.
 */
export const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.record(z.string(), z.unknown()),
});
export type OpenApiDocument = z.infer<typeof OpenApiDocument>;
