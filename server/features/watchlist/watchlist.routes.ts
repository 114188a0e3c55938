import { Router } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireAuth } from '../../http/auth';
import { parse, parseId } from '../../http/validate';
import { ListQuery } from '@shared/schemas/auctions';
import { WatchInput } from '@shared/schemas/watchlist';
import type { ApiOutput } from '@shared/api';
import { listWatched, unwatchAuction, watchAuction } from './watchlist.service';

/** The user's own watchlist (issue 14): watch, stop watching, the watched auctions' cards. */
export function watchlistRoutes(ctx: AppContext): Router {
  const r = Router();

  r.post('/watchlist/', requireAuth, async (req, res) => {
    const input = parse(WatchInput, req.body);
    const { created, body } = await watchAuction(ctx, currentUser(req), input.auction_item_id);
    res.status(created ? 201 : 200).json(body satisfies ApiOutput<'POST /api/watchlist/'>);
  });

  r.delete('/watchlist/:auctionId/', requireAuth, async (req, res) => {
    await unwatchAuction(ctx, currentUser(req), parseId(req.params.auctionId));
    res.status(204).end();
  });

  r.get('/watchlist/', requireAuth, async (req, res) => {
    res.json(await listWatched(ctx, currentUser(req), parse(ListQuery, req.query)));
  });

  return r;
}
