import { Router } from 'express';
import pkg from '../../../package.json';

type Document = Record<string, unknown>;
let document: Promise<Document> | undefined;

/**
 * The REST contract as OpenAPI 3.1 (shared/openapi.ts): built on the first request and kept. The generator is
 * imported then too, so that a start and a node's memory pay nothing for it until someone asks.
 */
function openApiDocument(): Promise<Document> {
  document ??= import('@shared/openapi')
    .then((m) => m.buildOpenApiDocument({ version: pkg.version }))
    .catch((err: unknown) => {
      document = undefined; // the next request tries again
      throw err;
    });
  return document;
}

/** GET /api/openapi.json: public, like the docs it mirrors. */
export function openApiRoutes(): Router {
  const r = Router();
  r.get('/openapi.json', async (_req, res) => {
    res.json(await openApiDocument());
  });
  return r;
}
