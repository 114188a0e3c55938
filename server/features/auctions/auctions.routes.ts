import { Router } from 'express';
import type { AppContext } from '../../context';

/** Stub: filled in by its issue. */
export function auctionsRoutes(_ctx: AppContext): Router {
  const r = Router();
  return r;
}
