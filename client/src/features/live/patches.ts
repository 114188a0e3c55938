/**
 * Pure cache patches for socket events: each takes what a query holds and returns the new value (or the
 * same object when nothing changes, so react-query does not re-render). Used with setQueryData through
 * the query-options keys the hooks use.
 */
import type { AuctionClosedEvent, AuctionUpdatedEvent, BidPlacedEvent } from '@shared/socket-events';
import type { AuctionCard, AuctionDetail, Paged } from '@shared/schemas/auctions';
import type { BidResponse as Bid } from '@shared/schemas/bids';
import type { CommentResponse as Comment } from '@shared/schemas/comments';
import type { NotificationResponse as Notification } from '@shared/schemas/notifications';

type LiveFields = Pick<AuctionDetail, 'current_price' | 'bid_count' | 'end_date' | 'status' | 'buy_now_price' | 'reserve_met' | 'outcome'> &
  AuctionUpdatedEvent['changes'] & { winner?: number | null };

/**
 * Copies the live fields onto an item; the same object if nothing changed. Only fields the item has: `winner`
 * and `phone_number` are the detail's, `first_image` the card's, and an `auction:updated` (whose `changes` the
 * browser checks only as an object, socket-events.ts) can add nothing else.
 */
function patchFields<T extends object>(item: T, next: Partial<LiveFields>): T {
  const entries = Object.entries(next).filter(([k, v]) => v !== undefined && k in item);
  if (entries.every(([k, v]) => (item as Record<string, unknown>)[k] === v)) return item;
  return { ...item, ...Object.fromEntries(entries) };
}

/** A row takes "Kupi odmah" away for good (issue 25) and says whether the hidden reserve is met now. */
export function bidFields(e: BidPlacedEvent): Partial<LiveFields> {
  return { current_price: e.current_price, bid_count: e.bid_count, end_date: e.end_date, buy_now_price: null, reserve_met: e.reserve_met };
}

export function closedFields(e: AuctionClosedEvent): Partial<LiveFields> {
  return { status: 'ended', current_price: e.final_price, end_date: e.end_date, winner: e.winner_id, outcome: e.outcome, buy_now_price: null };
}

export function patchDetail(d: AuctionDetail | undefined, next: Partial<LiveFields>): AuctionDetail | undefined {
  return d ? patchFields(d, next) : d;
}

/** Patches the card of `auctionId` on one cached list page; other pages are returned untouched. */
export function patchListPage(page: Paged<AuctionCard> | undefined, auctionId: number, next: Partial<LiveFields>): Paged<AuctionCard> | undefined {
  if (!page || !page.results.some((a) => a.id === auctionId)) return page;
  return { ...page, results: page.results.map((a) => (a.id === auctionId ? patchFields(a, next) : a)) };
}

export function removeFromListPage(page: Paged<AuctionCard> | undefined, auctionId: number): Paged<AuctionCard> | undefined {
  if (!page || !page.results.some((a) => a.id === auctionId)) return page;
  return { ...page, count: Math.max(0, page.count - 1), results: page.results.filter((a) => a.id !== auctionId) };
}

/** Appends a bid to the history (oldest first) once. An unloaded history stays unloaded. */
export function appendBid(list: Bid[] | undefined, bid: Bid): Bid[] | undefined {
  if (!list || list.some((b) => b.id === bid.id)) return list;
  return [...list, bid];
}

/** The highest bidder according to a loaded history (oldest first), or undefined. */
export function leaderOf(list: Bid[] | undefined): number | undefined {
  if (!list || list.length === 0) return undefined;
  let top = list[0]!;
  for (const b of list) if (b.amount >= top.amount) top = b;
  return top.bidder;
}

/** Adds a comment at the top (newest first) once. */
export function addCommentOnce(list: Comment[] | undefined, c: Comment): Comment[] | undefined {
  if (!list || list.some((x) => x.id === c.id)) return list;
  return [c, ...list];
}

export function removeComment(list: Comment[] | undefined, id: number): Comment[] | undefined {
  if (!list || !list.some((x) => x.id === id)) return list;
  return list.filter((x) => x.id !== id);
}

/** notification:created / notification:updated: replace by id, or put a new one first (newest first). */
export function upsertNotification(list: Notification[] | undefined, n: Notification): Notification[] | undefined {
  if (!list) return list;
  const i = list.findIndex((x) => x.id === n.id);
  if (i === -1) return [n, ...list];
  const copy = list.slice();
  copy[i] = { ...list[i], ...n };
  return copy;
}

/** Did a bid move the end later (soft close)? */
export function wasExtended(before: string | undefined, after: string): boolean {
  if (!before) return false;
  const a = new Date(before).getTime();
  const b = new Date(after).getTime();
  return Number.isFinite(a) && Number.isFinite(b) && b > a;
}
