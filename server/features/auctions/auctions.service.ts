import type { AppContext } from '../../context';
import type { AuctionImage, Db, DbOrTx, User } from '../../db/types';
import type { DomainEvent } from '../../events';
import { appendAudit } from '../audit/audit.repository';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import { ALL_AUCTIONS } from '@shared/categories';
import type { AuctionCard, AuctionDetail, CreateAuctionInput, ListQuery, Paged } from '@shared/schemas/auctions';
import { auctionTexts } from '@shared/texts/auctions';
import type { AdminAuctionsQuery } from '@shared/schemas/admin';
import { normaliseForSearch, searchTerm } from '@shared/rules/search';
import { PAGE_SIZE } from '@shared/rules/limits';
import { imagesForAuctions, listImages } from '../images/images.repository';
import { removeFiles } from '../images/media-store';
import { watchedAmong } from '../watchlist/watchlist.repository';
import * as repo from './auctions.repository';
import { bumpSeq, findSeqs } from './seq.repository';
import { unitOfWork } from '../../unit-of-work';
import { queueSavedSearchJob } from '../saved-searches/saved-searches.repository';
import { presentCard, presentDetail } from './auctions.presenter';
import { pageOf } from '../../lib/paging';

/** The plain (unpaged) list answers at most this many cards; clients that need more use `page`. */
export const PLAIN_LIST_MAX = 1000;
export const POPULAR_LIMIT = 10;
const POPULAR_WINDOW_MS = 24 * 3600 * 1000;

/**
 * Inserts the auction and, in the same transaction, its saved-search job (issue 28): the matcher claims it after
 * the commit, so creating never waits for the matching. Publishes `auction:created` after the commit.
 */
export async function createAuction(ctx: AppContext, seller: User, input: CreateAuctionInput): Promise<number> {
  const now = Date.now();
  const end = isoAt(now + input.auction_duration * ctx.config.auctionDaySeconds * 1000);
  const createdAt = isoAt(now);
  const { id } = await unitOfWork(
    ctx,
    async (tx) => {
      const id = await repo.insertAuction(tx, {
        seller_id: seller.id,
        title: input.title,
        description: input.description,
        category: input.category,
        city: input.city,
        city_norm: normaliseForSearch(input.city),
        phone_number: input.phone_number,
        starting_price: input.current_price,
        current_price: input.current_price,
        end_date: end,
        original_end_date: end,
        status: 'active',
        winner_id: null,
        search_text: normaliseForSearch(`${input.title} ${input.description}`),
        created_at: createdAt,
        closed_at: null,
        buy_now_price: input.buy_now_price,
        reserve_price: input.reserve_price,
      });
      await queueSavedSearchJob(tx, id, createdAt);
      const payload = { auction_id: id, seller_id: seller.id, category: input.category, city: input.city, current_price: input.current_price, created_at: createdAt };
      return { id, events: [{ type: 'auction:created', payload }] as const };
    },
    { events: (r) => r.events },
  );
  // A short auction (small AUCTION_DAY_SECONDS) may end before the closer's next planned wake-up.
  ctx.closer.rearm();
  return id;
}

/** The detail as `viewerId` sees it (none: a visitor): whether they watch it, and the watch count. */
export async function getDetail(ctx: AppContext, id: number, viewerId?: number): Promise<AuctionDetail> {
  const row = await repo.findDetail(ctx.db, id, viewerId);
  if (!row) throw AppError.notFound(auctionTexts.notFound);
  const images = await listImages(ctx.db, id);
  return presentDetail(row, images, Date.now(), viewerId);
}

/**
 * The detail snapshot of an auction for a socket that joins its room (exactly what getDetail() answers)
 * together with its seq. The seq comes in the detail's own statement, so it describes exactly that row (on
 * PostgreSQL, READ COMMITTED, a second statement could see a bid the first did not). The images are read after
 * it: never older than the seq (an image change after it is announced again with a larger seq, which only
 * repeats what the snapshot shows). Undefined when the auction does not exist. `viewerId`: the socket's user,
 * whose `watched` it shows (none: a visitor's socket).
 */
export async function getSnapshot(db: Db, id: number, viewerId?: number): Promise<{ seq: number; auction: AuctionDetail } | undefined> {
  const row = await repo.findDetail(db, id, viewerId);
  if (!row) return undefined;
  const images = await listImages(db, id);
  return { seq: row.seq, auction: presentDetail(row, images, Date.now(), viewerId) };
}

/** The current seq of each existing auction among `ids` (a socket that watches list cards). */
export function getSeqs(db: Db, ids: number[]): Promise<Map<number, number>> {
  return findSeqs(db, ids);
}

/**
 * The seller while there are no bids, an admin always. Image files go with the auction. Publishes
 * `auction:deleted` after the commit. A delete by an admin is written to the audit log in the same transaction.
 */
export async function deleteAuction(ctx: AppContext, user: User, id: number): Promise<void> {
  const auction = await repo.findAuction(ctx.db, id);
  if (!auction) throw AppError.notFound(auctionTexts.notFound);
  const isAdmin = !!user.is_admin;
  if (!isAdmin && auction.seller_id !== user.id) throw AppError.forbidden(auctionTexts.deleteForbidden);
  const deleted = await unitOfWork(ctx, (tx) => deleteAuctionInTx(tx, user, id), { events: (r) => r.events });
  await removeAuctionFiles(ctx, deleted);
}

export interface DeletedAuction {
  id: number;
  images: Array<Pick<AuctionImage, 'card_path' | 'large_path'>>;
  /** Published after the commit: `auction:deleted`. */
  events: DomainEvent[];
}

/**
 * The delete inside the caller's transaction (the delete route, a report's `delete_target`): the seller only
 * without bids, an admin always (with its audit-log row, `note` the admin's). Call removeAuctionFiles after the
 * commit.
 */
export async function deleteAuctionInTx(tx: DbOrTx, user: User, id: number, note = ''): Promise<DeletedAuction> {
  const isAdmin = !!user.is_admin;
  // The deletion is the auction's last change, so it takes the next seq like any other: bumped in the row
  // (which also locks it against a bid or comment until the delete) and rolled back if the delete is refused.
  const next = await bumpSeq(tx, id);
  if (next === undefined) throw AppError.notFound(auctionTexts.notFound);
  const images = await listImages(tx, id);
  if (!(await repo.deleteAuction(tx, id, !isAdmin))) {
    if (!isAdmin) throw AppError.badRequest(auctionTexts.deleteHasBids, undefined, 'has_bids');
    throw AppError.notFound(auctionTexts.notFound);
  }
  if (isAdmin) await appendAudit(tx, { admin_id: user.id, action: 'delete_auction', target_type: 'auction', target_id: id, note, created_at: isoAt(Date.now()) });
  return { id, images, events: [{ type: 'auction:deleted', payload: { auction_id: id, seq: next } }] };
}

/** After a delete commits: its image files (a failure is logged, the auction is gone either way). */
export async function removeAuctionFiles(ctx: AppContext, deleted: Pick<DeletedAuction, 'id' | 'images'>): Promise<void> {
  await removeFiles(
    ctx.config.mediaDir,
    deleted.images.flatMap((i) => [i.card_path, i.large_path]),
  ).catch((err: unknown) => ctx.logger.warn({ err, id: deleted.id }, 'could not remove image files'));
}

/** The criteria a list (or a saved search, issue 28) filters by, normalised once. */
export interface ListCriteria {
  q?: string | null;
  category?: string | null;
  min_price?: number | null;
  max_price?: number | null;
  city?: string | null;
}

/**
 * The filter of a list with these criteria at `now`: the one place that reads a list's query, shared by the lists
 * and the saved-search matcher, so a saved search matches exactly what its list shows.
 */
export function listFilter(scope: repo.ListScope, c: ListCriteria, now: string): repo.ListFilter {
  const city = c.city ? normaliseForSearch(c.city) : '';
  return {
    scope,
    now,
    category: c.category && c.category !== ALL_AUCTIONS ? c.category : undefined,
    search: searchTerm(c.q ?? undefined),
    minPrice: c.min_price ?? undefined,
    maxPrice: c.max_price ?? undefined,
    city: city || undefined,
  };
}

/**
 * Cards of a list: the plain array, or `{count, next, previous, results}` when `page` is given. `viewerId`: the
 * logged-in caller, whose watched auctions the cards mark (none: a visitor, nothing more is read).
 */
export async function listAuctions(
  ctx: AppContext,
  scope: repo.ListScope,
  query: ListQuery | AdminAuctionsQuery,
  viewerId?: number,
): Promise<AuctionCard[] | Paged<AuctionCard>> {
  const now = Date.now();
  const filter = listFilter(scope, query, isoAt(now));
  if (query.page === undefined) {
    const rows = await repo.listCards(ctx.db, filter, query.sort, query.page_size ?? PLAIN_LIST_MAX, 0);
    return presentCards(ctx, rows, now, viewerId);
  }
  const size = query.page_size ?? PAGE_SIZE;
  const count = await repo.countCards(ctx.db, filter);
  const rows = await repo.listCards(ctx.db, filter, query.sort, size, (query.page - 1) * size, count);
  return pageOf(count, query.page, size, await presentCards(ctx, rows, now, viewerId));
}

export async function listPopular(ctx: AppContext, viewerId?: number): Promise<AuctionCard[]> {
  const now = Date.now();
  const rows = await repo.listPopular(ctx.db, isoAt(now), isoAt(now - POPULAR_WINDOW_MS), POPULAR_LIMIT);
  return presentCards(ctx, rows, now, viewerId);
}

/**
 * Cards of one page: the images of all its auctions come from one batched query, never one per card; so does,
 * for a logged-in viewer, which of them they watch (a visitor's page reads nothing more).
 */
async function presentCards(ctx: AppContext, rows: repo.CardRow[], now: number, viewerId?: number): Promise<AuctionCard[]> {
  const ids = rows.map((r) => r.id);
  const [images, watched] = await Promise.all([
    imagesForAuctions(ctx.db, ids),
    viewerId === undefined ? new Set<number>() : watchedAmong(ctx.db, viewerId, ids),
  ]);
  return rows.map((r) => presentCard(r, images.get(r.id) ?? [], watched.has(r.id), now, viewerId));
}
