/**
 * Issue 14 in the live layer: every automatic row arrives as its own bid:placed. A leader whose maximum answers
 * at once gets no outbid toast for the row it answers; a row above the maximum spends it (the leader line goes)
 * and toasts; a new notification (e.g. ending soon) is shown as a toast unless the outbid toast already tells
 * it. A scripted socket stands in for socket.io-client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { LiveClient, type RoomEvent } from '../../../client/src/features/live/live-client';
import { auctionKey } from '../../../client/src/features/auctions/api/auction-detail';
import { bidsKey } from '../../../client/src/features/auctions/api/bids';
import { autoBidKey } from '../../../client/src/features/auctions/api/auto-bid';
import type { AppSocket } from '../../../client/src/lib/socket';
import type { BidResponse as Bid } from '@shared/schemas/bids';
import { auctionDetail } from './fixtures';

const ME = 7;
const OTHER = 8;
let seq = 1;
const row = (bidder: number, amount: number, auto = false): RoomEvent => {
  seq += 1;
  return {
    name: 'bid:placed',
    auction_id: 1,
    seq,
    payload: {
      auction_id: 1,
      seq,
      bid: { id: 100 + seq, bidder, bidder_name: bidder === ME ? 'Ja' : 'Bojan', amount, created_at: '2026-11-24T10:00:00.000Z', auto },
      current_price: amount,
      bid_count: seq,
      end_date: '2026-12-24T10:00:00.000Z',
    },
  } as RoomEvent;
};

/** Listeners only: the test fires server events by hand. */
function scriptedSocket() {
  const listeners = new Map<string, ((p: unknown) => void)[]>();
  const socket = {
    connected: false,
    on: (e: string, l: (p: unknown) => void) => listeners.set(e, [...(listeners.get(e) ?? []), l]),
    off: (e: string, l: (p: unknown) => void) => listeners.set(e, (listeners.get(e) ?? []).filter((x) => x !== l)),
    connect: () => undefined,
    disconnect: () => undefined,
  };
  const fire = (e: string, p: unknown) => (listeners.get(e) ?? []).forEach((l) => l(p));
  return { socket: socket as unknown as AppSocket, fire };
}

let live: LiveClient;
afterEach(() => live?.stop());

function setup(myMax: number | null) {
  const qc = new QueryClient();
  qc.setQueryData(auctionKey(1), auctionDetail({ current_price: 510, bid_count: 1 }));
  const mine: Bid = { id: 1, bidder: ME, bidder_name: 'Ja', amount: 510, created_at: '2026-11-24T09:00:00.000Z', auto: true, buy_now: false };
  qc.setQueryData(bidsKey(1), [mine]);
  qc.setQueryData(autoBidKey(1), { max_amount: myMax });
  live = new LiveClient();
  const s = scriptedSocket();
  live.start(qc, s.socket);
  live.setUser(ME);
  return { qc, fire: s.fire };
}

const notification = (id: number, message: string, auction_id: number | null = 1) => ({
  notification: { id, message, is_read: false, created_at: '2026-11-24T10:00:00.000Z', auction_id, kind: 'ending_soon' as const },
  unread_notifications_count: id,
});

describe('automatic rows in the live layer', () => {
  it('my maximum answers a lower bid: no toast, each row applied; a row above it spends it and toasts', () => {
    const { qc } = setup(1000);
    live.apply(row(OTHER, 800));
    live.apply(row(ME, 810, true));
    expect(live.toasts.get()).toEqual([]);
    expect(qc.getQueryData<Bid[]>(bidsKey(1))!.map((b) => b.amount)).toEqual([510, 800, 810]);
    expect(qc.getQueryData(autoBidKey(1))).toEqual({ max_amount: 1000 });
    // Equal maxima: the newcomer's row at N − 10, then mine at N: still no toast.
    live.apply(row(OTHER, 990, true));
    live.apply(row(ME, 1000, true));
    expect(live.toasts.get()).toEqual([]);
    live.apply(row(OTHER, 1010));
    expect(live.toasts.get()).toMatchObject([{ auctionId: 1, price: 1010 }]);
    expect(qc.getQueryData(autoBidKey(1))).toEqual({ max_amount: null });
  });

  it('without a maximum known, the toast for a row answered by my maximum goes when my row arrives', () => {
    setup(null);
    live.apply(row(OTHER, 600));
    expect(live.toasts.get()).toHaveLength(1);
    live.apply(row(ME, 610, true));
    expect(live.toasts.get()).toEqual([]);
  });
});

describe('notifications as toasts', () => {
  it('a new notification is shown (not an updated one), once, and not beside the outbid toast of its auction', () => {
    const { fire, qc } = setup(null);
    fire('notification:created', notification(1, 'Aukcija <a href="/aukcija/1">Gramofon</a> se završava za 2 minuta.'));
    expect(live.notices.get()).toMatchObject([{ notificationId: 1, auctionId: 1 }]);
    expect(live.notices.get()[0]!.message).toContain('se završava za 2 minuta.');
    expect(qc.getQueryData(['notifications', 'unread-count'])).toBe(1); // the bell moves too
    fire('notification:updated', notification(1, 'izmenjeno'));
    expect(live.notices.get()).toHaveLength(1);
    // The outbid toast of auction 1 replaces its notice; the outbid notification then adds nothing.
    live.apply(row(OTHER, 600));
    expect(live.toasts.get()).toHaveLength(1);
    expect(live.notices.get()).toEqual([]);
    fire('notification:created', notification(2, 'Vaša ponuda je nadmašena.'));
    expect(live.notices.get()).toEqual([]);
    fire('notification:created', notification(3, 'Druga aukcija se završava.', 2));
    expect(live.notices.get()).toMatchObject([{ notificationId: 3, auctionId: 2 }]);
    live.dismissNotice(live.notices.get()[0]!.id);
    expect(live.notices.get()).toEqual([]);
  });
});
