import { createHash } from 'node:crypto';
import { Router, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, requireActiveUser, requireAuth } from '../../http/auth';
import { AppError, sendError } from '../../http/errors';
import { parse, parseId } from '../../http/validate';
import { PlaceBidInput, UserNamesInput, type UserNamesResponse } from '@shared/schemas/bids';
import { bidTexts } from '@shared/texts/bids';
import { AutoBidInput, type AutoBidStateResponse } from '@shared/schemas/autobid';
import { placeBid, type IdempotencyKey } from './bids.service';
import { getAutoBid, setAutoBid } from './auto-bid.service';
import { buyNow } from './buy-now.service';
import { findAuction } from '../auctions/auctions.repository';
import { findUserNames, listBids } from './bids.repository';
import { presentBid } from './bids.presenter';
import type { BidResult } from './bid-result';
import { perUserLimit } from '../../http/rate-limit';

/** An optional `Idempotency-Key` header: 1–255 visible ASCII characters (a UUID is typical). */
const IdempotencyKeyHeader = z.string().regex(/^[\x21-\x7e]{1,255}$/);

/** The key and a hash of what it came with: a bid's [auction, amount], a buy-now's ['buy-now', auction]. */
function idempotencyKeyOf(header: string | undefined, request: readonly unknown[]): IdempotencyKey | undefined {
  if (header === undefined) return undefined;
  const parsed = IdempotencyKeyHeader.safeParse(header);
  if (!parsed.success) throw AppError.badRequest(bidTexts.idempotencyKeyInvalid, undefined, 'idempotency_key_invalid');
  const hash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
  return { key: parsed.data, hash };
}

/**
 * A bid's or a maximum's one result as its answer: the presented body with `status`, a refusal in the one error
 * shape (a refusal is the usual answer on a hot auction: it is sent here, not walked through the routers after
 * this one to the error handler; docs/performance.md, B1), or the stored first answer under the same key.
 */
function send<T>(res: Response, result: BidResult<T>, status: number): void {
  if (result.outcome === 'accepted') res.status(status).json(result.body);
  else if (result.outcome === 'refused') sendError(res, result.error);
  else res.status(result.replay.status).set('Idempotent-Replayed', 'true').type('application/json').send(result.replay.body);
}

/** Counts the result on GET /metrics (aukcije_bids_total): the outcome, and a refusal's error code as its reason. */
function counted<T>(ctx: AppContext, kind: 'bid' | 'auto_bid' | 'buy_now', result: BidResult<T>): BidResult<T> {
  ctx.metrics.bid(kind, result.outcome, result.outcome === 'refused' ? result.error.code : 'none');
  return result;
}

export function bidsRoutes(ctx: AppContext): Router {
  const r = Router();
  const bidLimit = perUserLimit(ctx, 'bid', 10_000, 30);
  const namesLimit = perUserLimit(ctx, 'names', 60_000, 120);

  r.post('/bids/', requireActiveUser, bidLimit, async (req, res) => {
    const input = parse(PlaceBidInput, req.body);
    const idem = idempotencyKeyOf(req.get('Idempotency-Key'), [input.auction_item_id, input.amount]);
    send(res, counted(ctx, 'bid', await placeBid(ctx, currentUser(req), input, idem)), 201);
  });

  /** "Kupi odmah" (issue 25): the members who may bid; ends the auction sold at its buy-now price. No body. */
  r.post('/auctions/:id/buy-now/', requireActiveUser, bidLimit, async (req, res) => {
    const auctionId = parseId(req.params.id);
    const idem = idempotencyKeyOf(req.get('Idempotency-Key'), ['buy-now', auctionId]);
    send(res, counted(ctx, 'buy_now', await buyNow(ctx, currentUser(req), auctionId, idem)), 201);
  });

  /** Sets or raises the caller's maximum (automatic bidding): the gates, limit and refusals of a bid. */
  r.put('/auctions/:id/auto-bid/', requireActiveUser, bidLimit, async (req, res) => {
    const auctionId = parseId(req.params.id);
    const input = parse(AutoBidInput, req.body);
    send(res, counted(ctx, 'auto_bid', await setAutoBid(ctx, currentUser(req), auctionId, input)), 200);
  });

  /** The caller's own active maximum, or null: nobody else's is ever shown. */
  r.get('/auctions/:id/auto-bid/', requireAuth, async (req, res) => {
    const auctionId = parseId(req.params.id);
    const body: AutoBidStateResponse = { max_amount: await getAutoBid(ctx, currentUser(req).id, auctionId) };
    res.json(body);
  });

  /** Bid history, oldest first (public, like the auction itself). */
  r.get('/bids/:auctionId/', async (req, res) => {
    const auctionId = parseId(req.params.auctionId);
    if (!(await findAuction(ctx.db, auctionId))) throw AppError.notFound();
    const rows = await listBids(ctx.db, auctionId);
    res.json(rows.map(presentBid));
  });

  /**
   * First names for the bid history, as the original client reads them: one per id that exists, in the order
   * asked (duplicates kept, unknown ids skipped), matched to the bids by position.
   */
  r.post('/users/', namesLimit, async (req, res) => {
    const { ids } = parse(UserNamesInput, req.body);
    const names = await findUserNames(ctx.db, ids);
    const body: UserNamesResponse = ids.flatMap((id) => names.get(id) ?? []);
    res.json(body);
  });

  return r;
}
