/**
 * The server side of the automatic-bidding tests: the two endpoints as a user calls them, and what the
 * server shows after a step (history with `auto` flags, price, each participant's own maximum, the `outbid`
 * notifications of the auction) in the shapes of tests/support/auto-bid-model.ts, so a test compares them
 * with the model in one `toEqual`.
 */
import type { TestServer } from './app';
import type { ApiClient } from './http';
import type { ModelNotice, ModelRow } from './auto-bid-model';

export function autoBidPath(auctionId: number): `/api/auctions/${string}/auto-bid/` {
  return `/api/auctions/${auctionId}/auto-bid/`;
}

/** PUT /api/auctions/{id}/auto-bid/ {max_amount}. */
export function putMax(api: ApiClient, auctionId: number, amount: number) {
  return api.put(autoBidPath(auctionId), { max_amount: amount });
}

/** GET /api/auctions/{id}/auto-bid/: the caller's own active maximum, or null. */
export async function ownMax(api: ApiClient, auctionId: number): Promise<number | null> {
  const res = await api.get(autoBidPath(auctionId));
  if (res.status !== 200) throw new Error(`GET auto-bid answered ${res.status}: ${res.text}`);
  return (res.body as { max_amount: number | null }).max_amount;
}

/** "1.000" → 1000 (the notification texts group thousands with dots). */
function dinars(grouped: string): number {
  return Number(grouped.replace(/\./g, ''));
}

/**
 * An `outbid` notification's message as a model notice: the beaten-maximum text ('Vaša automatska ponuda od
 * {max} din je nadmašena …') or the plain outbid text ('… Nova cena: {price} din. …'); null for anything else.
 */
export function noticeOf(userId: number, message: string): ModelNotice | null {
  const link = '<a href="/aukcija/\\d+">[^<]*</a>';
  const beaten = new RegExp(`^Vaša automatska ponuda od (\\d{1,3}(?:\\.\\d{3})*) din je nadmašena na aukciji ${link}\\.$`).exec(message);
  if (beaten) return { user: userId, kind: 'max_beaten', max: dinars(beaten[1]) };
  const plain = new RegExp(`^Vaša ponuda na aukciji ${link} je nadmašena\\.\\nNova cena: (\\d{1,3}(?:\\.\\d{3})*) din\\.\\nLicitirajte ponovo ako želite da pobedite\\.$`).exec(message);
  if (plain) return { user: userId, kind: 'outbid', price: dinars(plain[1]) };
  return null;
}

/** Every `outbid` notification of one auction, oldest first (by id), as model notices (unreadable ones kept as text). */
export async function noticesOf(t: TestServer, auctionId: number): Promise<(ModelNotice | string)[]> {
  const rows = await t.ctx.db
    .selectFrom('notifications')
    .select(['user_id', 'message'])
    .where('auction_id', '=', auctionId)
    .where('kind', '=', 'outbid')
    .orderBy('id', 'asc')
    .execute();
  return rows.map((n) => noticeOf(n.user_id, n.message) ?? `unparsed for ${n.user_id}: ${n.message}`);
}

/** The history as GET /api/bids/{id}/ lists it (oldest first), reduced to what the model knows. */
export async function historyOf(api: ApiClient, auctionId: number): Promise<(ModelRow & { id: number })[]> {
  const res = await api.get(`/api/bids/${auctionId}/`);
  if (res.status !== 200) throw new Error(`GET bids answered ${res.status}`);
  return res.body.map((b) => ({ id: b.id, bidder: b.bidder, amount: b.amount, auto: b.auto, ...(b.buy_now ? { buy_now: true as const } : {}) }));
}

/** Price and bid count as the auction's detail shows them. */
export async function detailOf(api: ApiClient, auctionId: number): Promise<{ price: number; bid_count: number }> {
  const res = await api.get(`/api/auction/${auctionId}/`);
  if (res.status !== 200) throw new Error(`GET auction answered ${res.status}`);
  return { price: res.body.current_price, bid_count: res.body.bid_count };
}

/** The seller's newest `new_bid` notification of an auction (bursts are folded into one), or null. */
export async function sellerNewBid(t: TestServer, auctionId: number, sellerId: number): Promise<string | null> {
  const row = await t.ctx.db
    .selectFrom('notifications')
    .select('message')
    .where('auction_id', '=', auctionId)
    .where('user_id', '=', sellerId)
    .where('kind', '=', 'new_bid')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.message ?? null;
}

/** 1500 → "1.500 din." as the notification texts write amounts. */
export function grouped(amount: number): string {
  return `${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, '.')} din.`;
}
