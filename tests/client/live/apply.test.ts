import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { LiveClient, type RoomEvent } from '../../../client/src/features/live/live-client';
import { auctionKey } from '../../../client/src/features/auctions/api/auction-detail';
import { auctionListQuery } from '../../../client/src/features/auctions/api/auctions-list';
import { bidsKey } from '../../../client/src/features/auctions/api/bids';
import { commentsKey } from '../../../client/src/features/auctions/api/comments';
import type { AuctionCard, AuctionDetail, Paged } from '@shared/schemas/auctions';
import type { BidResponse as Bid } from '@shared/schemas/bids';
import type { CommentResponse as Comment } from '@shared/schemas/comments';
import { upsertNotification, wasExtended, leaderOf } from '../../../client/src/features/live/patches';
import { applyNotification } from '../../../client/src/features/live/cache';
import { END, auctionCard, auctionDetail } from './fixtures';

const ME = 7;
const OTHER = 8;
const detail = auctionDetail;
const card = (id: number, over: Partial<AuctionCard> = {}): AuctionCard => auctionCard({ id, title: `Aukcija ${id}`, description: '', ...over });
const page = (...cards: AuctionCard[]): Paged<AuctionCard> => ({ count: cards.length, next: null, previous: null, results: cards });
const myBid: Bid = { id: 10, bidder: ME, bidder_name: 'Ja', amount: 1100, created_at: '2026-04-21T10:00:00.000Z', auto: false, buy_now: false };
const bidEvent = (seq: number, amount: number, bidder = OTHER, end_date = END): RoomEvent => ({
  name: 'bid:placed',
  auction_id: 1,
  seq,
  payload: {
    auction_id: 1,
    seq,
    bid: { id: 10 + seq, bidder, bidder_name: 'Bojan', amount, created_at: '2026-04-22T10:00:00.000Z', auto: false, buy_now: false },
    current_price: amount,
    bid_count: seq,
    end_date,
    reserve_met: null,
  },
});

const LIST_A = auctionListQuery('all', { page: 1, q: '', sort: 'endDateAsc', category: '' }).queryKey;
const LIST_B = auctionListQuery('bids', { page: 2, q: '', sort: 'endDateAsc', category: '' }).queryKey;

function setup() {
  const qc = new QueryClient();
  qc.setQueryData(auctionKey(1), detail());
  qc.setQueryData(bidsKey(1), [myBid]);
  qc.setQueryData(LIST_A, page(card(1), card(2)));
  qc.setQueryData(LIST_B, page(card(1)));
  qc.setQueryData(commentsKey(1), [] as Comment[]);
  const live = new LiveClient();
  live.attach(qc);
  live.setUser(ME);
  return { qc, live };
}

describe('live events patch the react-query cache in place', () => {
  it('bid:placed: detail price/count/end, history appended once, the card in every cached list page; outbid toast for the previous leader', () => {
    const { qc, live } = setup();
    const untouched = qc.getQueryData<Paged<AuctionCard>>(LIST_A)!.results[1];
    live.apply(bidEvent(2, 1500));
    expect(qc.getQueryData<AuctionDetail>(auctionKey(1))).toMatchObject({ current_price: 1500, bid_count: 2 });
    expect(qc.getQueryData<Bid[]>(bidsKey(1))!.map((b) => b.amount)).toEqual([1100, 1500]);
    expect(qc.getQueryData<Paged<AuctionCard>>(LIST_A)!.results[0]).toMatchObject({ current_price: 1500, bid_count: 2 });
    expect(qc.getQueryData<Paged<AuctionCard>>(LIST_A)!.results[1]).toBe(untouched);
    expect(qc.getQueryData<Paged<AuctionCard>>(LIST_B)!.results[0]).toMatchObject({ current_price: 1500, bid_count: 2 });
    expect(live.toasts.get()).toEqual([{ id: 1, auctionId: 1, title: 'Gramofon', price: 1500 }]);
    // The same event again changes nothing (the seq book normally drops it; the patch is idempotent too).
    live.apply(bidEvent(2, 1500));
    expect(qc.getQueryData<Bid[]>(bidsKey(1))).toHaveLength(2);
  });

  it('no toast when I was not leading, nor for my own bid', () => {
    const { live } = setup();
    live.apply(bidEvent(2, 1500, ME));
    expect(live.toasts.get()).toEqual([]);
    live.apply(bidEvent(3, 1600, OTHER));
    expect(live.toasts.get()).toHaveLength(1); // I led after my own bid
    live.apply(bidEvent(4, 1700, 99));
    expect(live.toasts.get()).toHaveLength(1); // already outbid: no second toast for someone else's raise
  });

  it('an end moved later by a bid marks the auction extended (only for an open detail page)', () => {
    const { live } = setup();
    const release = live.acquireDetail(1);
    live.apply(bidEvent(2, 1500, OTHER, '2026-05-01T10:02:00.000Z'));
    expect(live.extended.get().has(1)).toBe(true);
    release();
    expect(live.extended.get().has(1)).toBe(false);
  });

  it('auction:updated (issue 26): the changed fields on the detail and every cached card; a card takes only its own fields', () => {
    const { qc, live } = setup();
    const images = [{ id: 3, image: '/media/ab/x-large.webp', thumbnail: '/media/ab/x-card.webp' }];
    live.apply({
      name: 'auction:updated',
      auction_id: 1,
      seq: 2,
      payload: { auction_id: 1, seq: 2, changes: { title: 'Gramofon Dual', phone_number: '0659876543', current_price: 900, starting_price: 900, images, first_image: images[0]!.thumbnail } },
    });
    expect(qc.getQueryData<AuctionDetail>(auctionKey(1))).toMatchObject({ title: 'Gramofon Dual', phone_number: '0659876543', current_price: 900, starting_price: 900, images });
    expect('first_image' in qc.getQueryData<AuctionDetail>(auctionKey(1))!).toBe(false);
    for (const key of [LIST_A, LIST_B]) {
      const c = qc.getQueryData<Paged<AuctionCard>>(key)!.results[0]!;
      expect(c).toMatchObject({ title: 'Gramofon Dual', current_price: 900, images, first_image: images[0]!.thumbnail });
      expect('phone_number' in c || 'starting_price' in c).toBe(false);
    }
  });

  it('comments created/deleted, auction closed and deleted', () => {
    const { qc, live } = setup();
    const c: Comment = { id: 5, userId: OTHER, user: 'Bojan', content: 'Ispravan?', created_at: END, is_seller: false };
    live.apply({ name: 'comment:created', auction_id: 1, seq: 2, payload: { auction_id: 1, seq: 2, comment: c } });
    live.apply({ name: 'comment:created', auction_id: 1, seq: 2, payload: { auction_id: 1, seq: 2, comment: c } });
    expect(qc.getQueryData<Comment[]>(commentsKey(1))).toEqual([c]);
    live.apply({ name: 'comment:deleted', auction_id: 1, seq: 3, payload: { auction_id: 1, seq: 3, comment_id: 5 } });
    expect(qc.getQueryData<Comment[]>(commentsKey(1))).toEqual([]);

    live.apply({
      name: 'auction:closed',
      auction_id: 1,
      seq: 4,
      payload: { auction_id: 1, seq: 4, status: 'ended', winner_id: ME, final_price: 1100, end_date: END, outcome: 'sold' },
    });
    expect(qc.getQueryData<AuctionDetail>(auctionKey(1))).toMatchObject({ status: 'ended', winner: ME, current_price: 1100 });
    const closedCard = qc.getQueryData<Paged<AuctionCard>>(LIST_A)!.results[0]!;
    expect(closedCard.status).toBe('ended');
    expect('winner' in closedCard).toBe(false);

    live.apply({ name: 'auction:deleted', auction_id: 1, seq: 5, payload: { auction_id: 1, seq: 5 } });
    expect(qc.getQueryData<Paged<AuctionCard>>(LIST_A)).toMatchObject({ count: 1, results: [{ id: 2 }] });
    expect(qc.getQueryData<Paged<AuctionCard>>(LIST_B)!.results).toEqual([]);
  });

  it('issue 25: a "Kupi odmah" row takes the option away and says the reserve is met; the close carries the outcome', () => {
    const qc = new QueryClient();
    qc.setQueryData(auctionKey(1), detail({ bid_count: 0, current_price: 1000, buy_now_price: 8000, has_reserve: true, reserve_met: false }));
    qc.setQueryData(LIST_A, page(card(1, { bid_count: 0, current_price: 1000, buy_now_price: 8000, has_reserve: true, reserve_met: false })));
    const live = new LiveClient();
    live.attach(qc);
    live.setUser(ME);
    const bought: RoomEvent = {
      name: 'bid:placed',
      auction_id: 1,
      seq: 2,
      payload: {
        auction_id: 1,
        seq: 2,
        bid: { id: 30, bidder: OTHER, bidder_name: 'Kupac', amount: 8000, created_at: END, auto: false, buy_now: true },
        current_price: 8000,
        bid_count: 1,
        end_date: END,
        reserve_met: true,
      },
    };
    live.apply(bought);
    expect(qc.getQueryData<AuctionDetail>(auctionKey(1))).toMatchObject({ current_price: 8000, bid_count: 1, buy_now_price: null, reserve_met: true });
    expect(qc.getQueryData<Paged<AuctionCard>>(LIST_A)!.results[0]).toMatchObject({ buy_now_price: null, reserve_met: true });
    live.apply({ name: 'auction:closed', auction_id: 1, seq: 3, payload: { auction_id: 1, seq: 3, status: 'ended', winner_id: OTHER, final_price: 8000, end_date: END, outcome: 'sold' } });
    expect(qc.getQueryData<AuctionDetail>(auctionKey(1))).toMatchObject({ status: 'ended', winner: OTHER, outcome: 'sold' });

    // Below the reserve: no winner, the outcome says why.
    qc.setQueryData(auctionKey(2), detail({ id: 2, has_reserve: true, reserve_met: false }));
    live.apply({ name: 'auction:closed', auction_id: 2, seq: 9, payload: { auction_id: 2, seq: 9, status: 'ended', winner_id: null, final_price: 1100, end_date: END, outcome: 'reserve_not_met' } });
    expect(qc.getQueryData<AuctionDetail>(auctionKey(2))).toMatchObject({ status: 'ended', winner: null, outcome: 'reserve_not_met', reserve_met: false });
  });

  it('notifications: a new one goes first, an updated one is replaced by id', () => {
    const n = (id: number, message: string, is_read: boolean) => ({ id, message, is_read, created_at: '2026-11-22T10:00:00.000Z', auction_id: null, kind: 'outbid' as const });
    const list = [n(2, 'b', false), n(1, 'a', true)];
    expect(upsertNotification(list, n(3, 'c', false))!.map((x) => x.id)).toEqual([3, 2, 1]);
    expect(upsertNotification(list, n(2, 'b2', false))![0]!.message).toBe('b2');
    expect(upsertNotification(undefined, n(3, 'c', false))).toBeUndefined();
  });

  it("notifications: a 'rating_received' one makes the sales pages and profiles stale (issue 23), others do not", () => {
    const qc = new QueryClient();
    const sales = ['sales', 'seller', 1];
    const member = ['members', 3, 'profile'];
    qc.setQueryData(sales, { count: 0, next: null, previous: null, results: [] });
    qc.setQueryData(member, { id: 3 });
    const event = (kind: 'outbid' | 'rating_received', id: number) => ({
      notification: { id, message: 'm', is_read: false, created_at: '2026-11-25T10:00:00.000Z', auction_id: 1, kind },
      unread_notifications_count: id,
    });
    applyNotification(qc, event('outbid', 1));
    expect(qc.getQueryState(sales)?.isInvalidated).toBe(false);
    applyNotification(qc, event('rating_received', 2));
    expect(qc.getQueryState(sales)?.isInvalidated).toBe(true);
    expect(qc.getQueryState(member)?.isInvalidated).toBe(true);
  });

  it('helpers: extension and leader', () => {
    expect(wasExtended(END, '2026-05-01T10:00:30.000Z')).toBe(true);
    expect(wasExtended(END, END)).toBe(false);
    expect(wasExtended(undefined, END)).toBe(false);
    expect(leaderOf([myBid, { ...myBid, id: 11, bidder: OTHER, amount: 1500 }])).toBe(OTHER);
    expect(leaderOf([])).toBeUndefined();
  });
});
