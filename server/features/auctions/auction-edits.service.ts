/**
 * Editing an auction before its first bid and relisting an unsold one (issue 26). An edit runs in the
 * auction's bid lane and under its row lock (the lock bids, buy-now and the closer take), so it lands before a
 * bid or not at all; watchers get `auction:updated` with the changed fields after the commit.
 */
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Auction, Database, DbOrTx, User } from '../../db/types';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import { isUniqueViolation } from '../../db/dialect';
import { unitOfWork } from '../../unit-of-work';
import type { DomainEvent } from '../../events';
import type { AuctionDetail } from '@shared/schemas/auctions';
import { optionMessages } from '@shared/schemas/auctions';
import { AuctionChanges, type EditAuctionInput, type RelistInput } from '@shared/schemas/auction-edits';
import { auctionTexts } from '@shared/texts/auctions';
import { auctionEditTexts } from '@shared/texts/auction-edits';
import { isEditable, relistRefusal, type RelistRefusal } from '@shared/rules/auction-edits';
import { normaliseForSearch } from '@shared/rules/search';
import { appendImages, imageFilesOf, listImages } from '../images/images.repository';
import { copyStored, removeFiles, type StoredImage } from '../images/media-store';
import { lockAuction } from '../bids/bids.repository';
import * as repo from './auctions.repository';
import { presentDetail } from './auctions.presenter';
import { queueSavedSearchJob } from '../saved-searches/saved-searches.repository';

/** The 400 of a change after the first bid or the end. */
export const notEditable = () => AppError.badRequest(auctionEditTexts.notEditable, undefined, 'not_editable');

/** The auction when `user` is its seller: 404 for an unknown one, 403 (with `message`) for anyone else. */
export async function requireOwnAuction(db: DbOrTx, user: User, id: number, message: string): Promise<Auction> {
  const auction = await repo.findAuction(db, id);
  if (!auction) throw AppError.notFound(auctionTexts.notFound);
  if (auction.seller_id !== user.id) throw AppError.forbidden(message);
  return auction;
}

/** Under the lock: the auction, still open and without bids, or not_editable. */
export async function lockEditable(tx: DbOrTx, id: number, now: number): Promise<Auction> {
  const auction = await lockAuction(tx, id, 0); // 0: no bidder (the block lookup it carries finds none)
  if (!auction) throw AppError.notFound(auctionTexts.notFound);
  if (!isEditable(auction, now)) throw notEditable();
  return auction;
}

/** The public detail's fields that differ between two presentations (what `auction:updated` carries for an edit). */
export function changesBetween(before: AuctionDetail, after: AuctionDetail): AuctionChanges {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(AuctionChanges.shape).filter((k) => k !== 'first_image') as Exclude<keyof AuctionChanges, 'first_image'>[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = after[key];
  }
  return out as AuctionChanges;
}

/** The `auction:updated` of a change that took `seq`. */
export function updatedEvent(auctionId: number, seq: number, changes: AuctionChanges): DomainEvent {
  return { type: 'auction:updated', payload: { auction_id: auctionId, seq, changes } };
}

/** The selling options a change leaves, checked against the starting price it leaves (create's rules). */
function checkOptions(starting: number, buyNow: number | null, reserve: number | null): void {
  const messages = optionMessages(starting, buyNow, reserve);
  const entries = Object.entries(messages);
  if (entries.length === 0) return;
  throw AppError.badRequest(entries[0]![1], Object.fromEntries(entries.map(([k, m]) => [k, [m]])));
}

/**
 * PATCH /api/auctions/{id}/: the seller's fields sent change (the end date never does), under the auction's
 * lock while it is open and has no bid; the options are checked against the stored values of fields not sent.
 * Answers the seller's detail.
 */
export async function editAuction(ctx: AppContext, seller: User, id: number, input: EditAuctionInput): Promise<AuctionDetail> {
  await requireOwnAuction(ctx.db, seller, id, auctionEditTexts.editForbidden);
  return ctx.bidLanes.run(id, async (lane) => {
    const { detail } = await unitOfWork(ctx, (tx) => writeEdit(tx, seller, id, input), { events: (r) => r.events });
    // A lane keeps the highest price it saw for the bids behind it; an edit may have lowered the price.
    lane.price = null;
    return detail;
  });
}

async function writeEdit(tx: Transaction<Database>, seller: User, id: number, input: EditAuctionInput) {
  const now = Date.now();
  const auction = await lockEditable(tx, id, now);
  const starting = input.current_price ?? auction.starting_price;
  const buyNow = input.buy_now_price === undefined ? auction.buy_now_price : input.buy_now_price;
  const reserve = input.reserve_price === undefined ? auction.reserve_price : input.reserve_price;
  checkOptions(starting, buyNow, reserve);
  const before = await repo.findDetail(tx, id);
  const title = input.title ?? auction.title;
  const description = input.description ?? auction.description;
  const seq = await repo.updateAuction(tx, id, {
    ...(input.title !== undefined && { title }),
    ...(input.description !== undefined && { description }),
    ...(input.category !== undefined && { category: input.category }),
    ...(input.city !== undefined && { city: input.city, city_norm: normaliseForSearch(input.city) }),
    ...(input.phone_number !== undefined && { phone_number: input.phone_number }),
    ...(input.current_price !== undefined && { starting_price: starting, current_price: starting }),
    buy_now_price: buyNow,
    reserve_price: reserve,
    search_text: normaliseForSearch(`${title} ${description}`),
  });
  const after = await repo.findDetail(tx, id, seller.id);
  if (seq === undefined || !before || !after) throw notEditable();
  const images = await listImages(tx, id);
  const changes = changesBetween(presentDetail(before, images, now), presentDetail(after, images, now));
  return { detail: presentDetail(after, images, now, seller.id), events: [updatedEvent(id, seq, changes)] };
}

const RELIST_MESSAGES: Record<RelistRefusal, string> = {
  not_relistable: auctionEditTexts.notRelistable,
  already_relisted: auctionEditTexts.alreadyRelisted,
  relist_limit: auctionEditTexts.relistLimit,
};

const relistError = (r: RelistRefusal) => AppError.badRequest(RELIST_MESSAGES[r], undefined, r);

/**
 * POST /api/auctions/{id}/relist/: a new auction with the old one's text, category, city and phone and copies of
 * its images (new files), for the seller of an auction that ended unsold or below its reserve; once per auction
 * (the unique relisted_from decides between two at once), nine in a chain. The old auction is not touched.
 */
export async function relistAuction(ctx: AppContext, seller: User, id: number, input: RelistInput): Promise<number> {
  const old = await requireOwnAuction(ctx.db, seller, id, auctionEditTexts.relistForbidden);
  const refusal = relistRefusal({ ...old, relisted_as: (await repo.findRelistOf(ctx.db, id)) ?? null });
  if (refusal) throw relistError(refusal);
  const starting = input.current_price ?? old.starting_price;
  const buyNow = input.buy_now_price === undefined ? old.buy_now_price : input.buy_now_price;
  const reserve = input.reserve_price === undefined ? old.reserve_price : input.reserve_price;
  checkOptions(starting, buyNow, reserve);
  const nowMs = Date.now();
  const end = isoAt(nowMs + input.auction_duration * ctx.config.auctionDaySeconds * 1000);
  const copies = await copyImagesOf(ctx, id);
  let newId: number;
  try {
    newId = await unitOfWork(
      ctx,
      async (tx) => {
        const created = await repo.insertAuction(tx, {
          ...pickListing(old),
          starting_price: starting,
          current_price: starting,
          end_date: end,
          original_end_date: end,
          status: 'active',
          winner_id: null,
          created_at: isoAt(nowMs),
          closed_at: null,
          buy_now_price: buyNow,
          reserve_price: reserve,
          relisted_from: id,
          relist_count: old.relist_count + 1,
        });
        await appendImages(tx, created, copies.images, isoAt(nowMs));
        // A relist is a new auction for saved searches too (issue 28): matched after the commit like a created one.
        await queueSavedSearchJob(tx, created, isoAt(nowMs));
        return created;
      },
      {
        events: (created): DomainEvent[] => [
          { type: 'auction:relisted', auctionId: created, relistedFrom: id, sellerId: seller.id },
          { type: 'auction:created', payload: { auction_id: created, seller_id: seller.id, category: old.category, city: old.city, current_price: starting, created_at: isoAt(nowMs) } },
        ],
      },
    );
  } catch (err) {
    await copies.discard();
    throw isUniqueViolation(err) ? relistError('already_relisted') : err;
  }
  ctx.closer.rearm();
  return newId;
}

function pickListing(a: Auction) {
  return { seller_id: a.seller_id, title: a.title, description: a.description, category: a.category, city: a.city, city_norm: normaliseForSearch(a.city), phone_number: a.phone_number, search_text: a.search_text };
}

/** New files copied from an auction's images, in display order, and how to remove them if the relist fails. */
async function copyImagesOf(ctx: AppContext, auctionId: number): Promise<{ images: StoredImage[]; discard: () => Promise<void> }> {
  const copies: StoredImage[] = [];
  const discard = () => removeFiles(ctx.config.mediaDir, copies.flatMap((c) => [c.card_path, c.large_path]));
  try {
    for (const img of await imageFilesOf(ctx.db, auctionId)) copies.push(await copyStored(ctx.config.mediaDir, img));
  } catch (err) {
    await discard();
    throw err;
  }
  return { images: copies, discard };
}
