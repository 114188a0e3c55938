import { Router } from 'express';
import type { AppContext } from '../../context';
import { checkHealth } from './health.service';

/** For load balancers: 200 while this node can serve, 503 (same body) while an engine it needs is down. */
export function healthRoutes(ctx: AppContext): Router {
  const r = Router();
  r.get('/health/', async (_req, res) => {
    const body = await checkHealth(ctx);
    res.status(body.status === 'ok' ? 200 : 503).json(body);
  });
  return r;
}
