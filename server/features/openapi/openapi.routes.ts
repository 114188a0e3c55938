import { Router } from 'express';
import pkg from '../../../package.json';

let document: Promise<string> | undefined;

/**
 * The REST contract as OpenAPI 3.1 (shared/openapi.ts), as JSON text: built on the first request and kept. The
 * generator is imported then too, so that a start and a node's memory pay nothing for it until someone asks.
 */
function openApiJson(): Promise<string> {
  document ??= import('@shared/openapi')
    .then((m) => JSON.stringify(m.buildOpenApiDocument({ version: pkg.version })))
    .catch((err: unknown) => {
      document = undefined; // the next request tries again
      throw err;
    });
  return document;
}

/** GET /api/openapi.json: public, like docs/api.md that it mirrors. */
export function openApiRoutes(): Router {
  const r = Router();
  r.get('/openapi.json', async (_req, res) => {
    res.type('application/json').send(await openApiJson());
  });
  return r;
}
