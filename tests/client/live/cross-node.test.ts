/**
 * The live layer with events of two nodes that cross on their way: an early bid waits for the missing seq
 * (no second `auction:join`, both applied in order); one that waits in vain makes it rejoin after 300 ms.
 * A scripted socket stands in for socket.io-client; timers are fake.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { LiveClient } from '../../../client/src/features/live/live-client';
import { auctionKey } from '../../../client/src/features/auctions/api/auction-detail';
import { bidsKey } from '../../../client/src/features/auctions/api/bids';
import type { AppSocket } from '../../../client/src/lib/socket';
import type { AuctionDetail } from '@shared/schemas/auctions';
import type { BidResponse as Bid } from '@shared/schemas/bids';
import { END, auctionDetail } from './fixtures';

const detail = auctionDetail({ current_price: 1000, bid_count: 0 });
const bid = (seq: number) => ({
  auction_id: 1,
  seq,
  bid: { id: 100 + seq, bidder: 8, bidder_name: 'Bojan', amount: 1000 + seq * 10, created_at: END, auto: false, buy_now: false },
  current_price: 1000 + seq * 10,
  bid_count: seq,
  end_date: END,
  reserve_met: null,
});

/** Just enough of a socket.io-client socket: listeners, connect, and acks for join and time:sync. */
function scriptedSocket(snapshotSeq: number) {
  const listeners = new Map<string, Set<(...a: unknown[]) => void>>();
  const sent: string[] = [];
  const fire = (event: string, ...args: unknown[]) => {
    for (const l of [...(listeners.get(event) ?? [])]) l(...args);
  };
  const answer = async (event: string, payload: unknown) => {
    sent.push(event);
    if (event === 'auction:join') return { ok: true, server_time: Date.now(), seq: snapshotSeq, auction: detail };
    if (event === 'time:sync') return { client_time: (payload as { client_time: number }).client_time, server_time: Date.now() };
    return { ok: true };
  };
  const socket = {
    connected: false,
    on(event: string, l: (...a: unknown[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(l);
    },
    off(event: string, l: (...a: unknown[]) => void) {
      listeners.get(event)?.delete(l);
    },
    connect() {
      queueMicrotask(() => {
        socket.connected = true;
        fire('connect');
      });
    },
    disconnect() {
      socket.connected = false;
    },
    emit(event: string, payload: unknown, ack?: (r: unknown) => void) {
      void answer(event, payload).then((r) => ack?.(r));
    },
    timeout() {
      return { emitWithAck: (event: string, payload: unknown) => answer(event, payload) };
    },
  };
  return { socket: socket as unknown as AppSocket, sent, fire };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

async function openDetail() {
  const qc = new QueryClient();
  qc.setQueryData(bidsKey(1), [] as Bid[]);
  const s = scriptedSocket(0);
  const live = new LiveClient();
  live.start(qc, s.socket);
  live.acquireDetail(1);
  await vi.advanceTimersByTimeAsync(10);
  expect(s.sent.filter((e) => e === 'auction:join')).toHaveLength(1);
  return { qc, live, ...s };
}

describe('live layer: events of two nodes that cross', () => {
  it('an early bid waits for the missing one: both applied in seq order, no rejoin', async () => {
    const { qc, live, sent, fire } = await openDetail();
    fire('bid:placed', bid(2));
    expect(qc.getQueryData<AuctionDetail>(auctionKey(1))?.bid_count).toBe(0);
    await vi.advanceTimersByTimeAsync(120);
    fire('bid:placed', bid(1));
    expect(qc.getQueryData<Bid[]>(bidsKey(1))!.map((b) => b.id)).toEqual([101, 102]);
    expect(qc.getQueryData<AuctionDetail>(auctionKey(1))).toMatchObject({ bid_count: 2, current_price: 1020 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent.filter((e) => e === 'auction:join')).toHaveLength(1);
    live.stop();
  });

  it('a bid whose predecessor never comes: the page rejoins (fresh snapshot) after 300 ms, not before', async () => {
    const { live, sent, fire } = await openDetail();
    fire('bid:placed', bid(3));
    await vi.advanceTimersByTimeAsync(290);
    expect(sent.filter((e) => e === 'auction:join')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(sent.filter((e) => e === 'auction:join')).toHaveLength(2);
    live.stop();
  });
});
