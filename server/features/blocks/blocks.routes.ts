import { Router } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireAuth } from '../../http/auth';
import { parse, parseId } from '../../http/validate';
import { BlockMemberInput } from '@shared/schemas/blocks';
import { PageQuery } from '@shared/schemas/sales';
import type { ApiOutput } from '@shared/api';
import { blockMember, listBlockedMembers, unblockMember } from './blocks.service';

/** The caller's own block list ("crna lista", issue 24). */
export function blocksRoutes(ctx: AppContext): Router {
  const r = Router();

  r.get('/blocked-members/', requireAuth, async (req, res) => {
    const query = parse(PageQuery, req.query);
    res.json((await listBlockedMembers(ctx, currentUser(req), query)) satisfies ApiOutput<'GET /api/blocked-members/'>);
  });

  r.post('/blocked-members/', requireAuth, async (req, res) => {
    const { user_id } = parse(BlockMemberInput, req.body);
    const { created, body } = await blockMember(ctx, currentUser(req), user_id);
    res.status(created ? 201 : 200).json(body satisfies ApiOutput<'POST /api/blocked-members/'>);
  });

  r.delete('/blocked-members/:userId/', requireAuth, async (req, res) => {
    await unblockMember(ctx, currentUser(req), parseId(req.params.userId));
    res.status(204).end();
  });

  return r;
}
