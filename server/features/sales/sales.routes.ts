import { Router } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireActiveUser, requireAuth } from '../../http/auth';
import { parse, parseId } from '../../http/validate';
import { RatingInput, ReplyInput, SalesQuery } from '@shared/schemas/sales';
import type { ApiOutput } from '@shared/api';
import { listSales, rateSale, replyToRating } from './sales.service';

/** Sales and their ratings (issue 23): the caller's own sales; rating and answering need an active user. */
export function salesRoutes(ctx: AppContext): Router {
  const r = Router();

  r.get('/sales/', requireAuth, async (req, res) => {
    const query = parse(SalesQuery, req.query);
    res.json((await listSales(ctx, currentUser(req), query)) satisfies ApiOutput<'GET /api/sales/'>);
  });

  r.post('/sales/:auctionId/rating/', requireActiveUser, async (req, res) => {
    const auctionId = parseId(req.params.auctionId);
    const input = parse(RatingInput, req.body);
    res.status(201).json((await rateSale(ctx, currentUser(req), auctionId, input)) satisfies ApiOutput<'POST /api/sales/:auctionId/rating/'>);
  });

  r.post('/ratings/:id/reply/', requireActiveUser, async (req, res) => {
    const id = parseId(req.params.id);
    const { content } = parse(ReplyInput, req.body);
    res.status(201).json((await replyToRating(ctx, currentUser(req), id, content)) satisfies ApiOutput<'POST /api/ratings/:id/reply/'>);
  });

  return r;
}
