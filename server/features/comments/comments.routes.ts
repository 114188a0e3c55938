import { Router } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireActiveUser, requireAuth } from '../../http/auth';
import { AppError } from '../../http/errors';
import { parse, parseId } from '../../http/validate';
import { CreateCommentInput } from '@shared/schemas/comments';
import { findAuctionRef, listComments } from './comments.repository';
import { presentComment } from './comments.presenter';
import { createComment, removeComment } from './comments.service';
import { perUserLimit } from '../../http/rate-limit';

export function commentsRoutes(ctx: AppContext): Router {
  const r = Router();
  const commentLimit = perUserLimit(ctx, 'comment', 60_000, 10);

  /** Public, newest first. */
  r.get('/comments/:auctionId/', async (req, res) => {
    const auctionId = parseId(req.params.auctionId);
    if (!(await findAuctionRef(ctx.db, auctionId))) throw AppError.notFound();
    const rows = await listComments(ctx.db, auctionId);
    res.json(rows.map(presentComment));
  });

  r.post('/comments/create/', requireActiveUser, commentLimit, async (req, res) => {
    const input = parse(CreateCommentInput, req.body);
    const created = await createComment(ctx, currentUser(req), input);
    res.status(201).json(created.comment);
  });

  r.delete('/comments/:commentId/delete/', requireAuth, async (req, res) => {
    const commentId = parseId(req.params.commentId);
    await removeComment(ctx, currentUser(req), commentId);
    res.status(204).end();
  });

  return r;
}
