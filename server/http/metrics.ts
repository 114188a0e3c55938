import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Metrics } from '../lib/metrics';
import { AppError, sendError } from './errors';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * GET /metrics (Prometheus text format): only with METRICS_TOKEN, and only for `Authorization: Bearer <token>`.
 * Anything else (no variable, no or a wrong token) is the plain JSON 404 of an unknown path:
 * a scanner learns nothing, not even that the route exists. The tokens are compared as SHA-256 digests in
 * constant time (equal lengths, whatever was sent).
 */
export function metricsRoute(token: string | undefined, metrics: Metrics): RequestHandler {
  const expected = token && metrics.enabled ? digest(token) : undefined;
  return (req, res, next) => {
    const sent = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
    if (!expected || !sent || !timingSafeEqual(digest(sent), expected)) {
      sendError(res, AppError.notFound());
      return;
    }
    metrics.render().then(({ contentType, body }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.type(contentType).send(body);
    }, next);
  };
}
