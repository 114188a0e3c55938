import { Router } from 'express';
import type { AppContext } from '../../context';
import { parse, parseId } from '../../http/validate';
import { PageQuery } from '@shared/schemas/sales';
import type { ApiOutput } from '@shared/api';
import { getMember, listMemberAuctions, listMemberRatings } from './members.service';

/** Public member profiles (issue 23): anyone may read them; a blocked or unknown member is 404. */
export function membersRoutes(ctx: AppContext): Router {
  const r = Router();

  r.get('/members/:id/', async (req, res) => {
    res.json((await getMember(ctx, parseId(req.params.id), req.user?.id)) satisfies ApiOutput<'GET /api/members/:id/'>);
  });

  r.get('/members/:id/ratings/', async (req, res) => {
    const id = parseId(req.params.id);
    res.json((await listMemberRatings(ctx, id, parse(PageQuery, req.query))) satisfies ApiOutput<'GET /api/members/:id/ratings/'>);
  });

  r.get('/members/:id/auctions/', async (req, res) => {
    const id = parseId(req.params.id);
    res.json((await listMemberAuctions(ctx, id, parse(PageQuery, req.query), req.user?.id)) satisfies ApiOutput<'GET /api/members/:id/auctions/'>);
  });

  return r;
}
