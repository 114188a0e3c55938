import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireActiveUser, requireAuth } from '../../http/auth';
import { AppError } from '../../http/errors';
import { SESSION_COOKIE } from '../../http/session-store';
import { setRouteLabel } from '../../lifecycle';
import { parse, parseId } from '../../http/validate';
import { CreateAuctionInput, ListQuery } from '@shared/schemas/auctions';
import { auctionTexts } from '@shared/texts/auctions';
import { AdminAuctionsQuery } from '@shared/schemas/admin';
import type { ApiOutput } from '@shared/api';
import { findAuction, findSeller } from './auctions.repository';
import { createAuction, deleteAuction, getDetail, listAuctions, listPopular } from './auctions.service';
import { EditAuctionInput, RelistInput } from '@shared/schemas/auction-edits';
import { editAuction, relistAuction } from './auction-edits.service';
import { createListCache, type ListCache } from './list-cache';
import { cacheVersion } from '../../lib/version';

/**
 * Text fields only (images have their own call); small limits, the fields are short. multer is loaded with the
 * first new auction, not at start (docs/performance.md, "B4 as users run it").
 */
let fieldsOnly: Promise<RequestHandler> | undefined;
const receiveFields: RequestHandler = async (req, res, next) => {
  fieldsOnly ??= import('multer').then(({ default: multer }) =>
    multer({ limits: { fields: 20, fieldSize: 20_000, files: 0, parts: 20 }, defParamCharset: 'utf8' }).none(),
  );
  (await fieldsOnly)(req, res, (err: unknown) => next(err ? AppError.badRequest(auctionTexts.badForm, undefined, 'bad_form') : undefined));
};

/** The anonymous public lists' cache (list-cache.ts): one version per node, or one in Redis shared by every node. */
export function publicListCache(ctx: AppContext): ListCache {
  return createListCache(ctx, cacheVersion(ctx.redis, 'lists:version', ctx.logger));
}

/** The routes below that answer through the list cache. */
const CACHED_LISTS: ReadonlySet<string> = new Set(['/auctions/best/', '/auctions/', '/all-auction-items/']);

/**
 * A visitor's list read that a fresh cache entry answers, mounted below /api before the API's stack (body
 * parsers, the session check, CSRF, ~40 routes tried in turn: most of a cached read's time, docs/performance.md,
 * B3). A middleware, not routes: it only ever answers what the routes below would, and passes on the rest (a
 * session cookie, a miss: that route fills the entry). `prepare` adds what the stack would have (no-store, the
 * visitor's CSRF cookie); the answer is counted on /metrics under its route, as the route's own answers are.
 */
export function cachedListAnswers(lists: ListCache, prepare: (req: Request, res: Response) => void): RequestHandler {
  return async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !CACHED_LISTS.has(req.path) || req.cookies?.[SESSION_COOKIE]) return next();
    const served = await lists.serveCached(req, res, () => {
      prepare(req, res);
      setRouteLabel(res, `/api${req.path}`);
    });
    if (!served) next();
  };
}

export function auctionsRoutes(ctx: AppContext, lists: ListCache): Router {
  const r = Router();

  r.post('/auctionItems/', requireActiveUser, receiveFields, async (req, res) => {
    const input = parse(CreateAuctionInput, { ...req.body });
    const id = await createAuction(ctx, currentUser(req), input);
    res.status(201).json({ id, detail: auctionTexts.created } satisfies ApiOutput<'POST /api/auctionItems/'>);
  });

  r.get('/auction/:id/', async (req, res) => {
    res.json(await getDetail(ctx, parseId(req.params.id), req.user?.id));
  });

  r.delete('/auctionItems/delete/:id/', requireActiveUser, async (req, res) => {
    await deleteAuction(ctx, currentUser(req), parseId(req.params.id));
    res.status(204).end();
  });

  // Issue 26: the seller edits an open auction before its first bid, or relists one that ended unsold.
  r.patch('/auctions/:id/', requireActiveUser, async (req, res) => {
    const id = parseId(req.params.id);
    const input = parse(EditAuctionInput, req.body);
    res.json((await editAuction(ctx, currentUser(req), id, input)) satisfies ApiOutput<'PATCH /api/auctions/:id/'>);
  });

  r.post('/auctions/:id/relist/', requireActiveUser, async (req, res) => {
    const id = parseId(req.params.id);
    const input = parse(RelistInput, req.body);
    res.status(201).json({ id: await relistAuction(ctx, currentUser(req), id, input) } satisfies ApiOutput<'POST /api/auctions/:id/relist/'>);
  });

  r.get('/user/username/:auctionId/', async (req, res) => {
    const seller = await findSeller(ctx.db, parseId(req.params.auctionId));
    if (!seller) throw AppError.notFound(auctionTexts.notFound);
    res.json({ first_name: seller.first_name, id: seller.id } satisfies ApiOutput<'GET /api/user/username/:auctionId/'>);
  });

  r.get('/auctions/:id/offer_count/', async (req, res) => {
    const auction = await findAuction(ctx.db, parseId(req.params.id));
    if (!auction) throw AppError.notFound(auctionTexts.notFound);
    res.json({ bid_count: auction.bid_count } satisfies ApiOutput<'GET /api/auctions/:id/offer_count/'>);
  });

  // Lists. Public ones show open auctions of unblocked sellers; own ones include ended auctions.
  r.get('/auctions/best/', async (req, res) => {
    await lists.send(req, res, () => listPopular(ctx, req.user?.id));
  });

  r.get('/auctions/', async (req, res) => {
    await lists.send(req, res, () => listAuctions(ctx, { kind: 'public' }, parse(ListQuery, req.query), req.user?.id));
  });

  // An admin sees every auction and may filter by `status` and sort by bid count; others get the public list.
  r.get('/all-auction-items/', async (req, res) => {
    if (req.user?.is_admin) {
      const query = parse(AdminAuctionsQuery, req.query);
      res.json(await listAuctions(ctx, { kind: 'all', status: query.status }, query, req.user.id));
      return;
    }
    await lists.send(req, res, () => listAuctions(ctx, { kind: 'public' }, parse(ListQuery, req.query), req.user?.id));
  });

  const own =
    (kind: 'seller' | 'bidder'): RequestHandler =>
    async (req, res) => {
      const user = currentUser(req);
      res.json(await listAuctions(ctx, { kind, userId: user.id }, parse(ListQuery, req.query), user.id));
    };
  r.get('/my-auctions/', requireAuth, own('seller'));
  r.get('/auctionItems/', requireAuth, own('seller'));
  r.get('/all-my-biddings/', requireAuth, own('bidder'));

  return r;
}
