/**
 * Issue 22, point 4: after one's own bid, the 201's answer and the live `bid:placed` do not both write the same
 * caches. While the live layer follows the auction, the event patches the history and the list cards, and the
 * 201 only the detail: the bid causes no refetch of the history or of a list, whichever of the two arrives
 * first. Without the live layer (nobody else will tell), the 201 refetches them as before.
 * The real hooks over a counted fetch; a scripted socket stands in for socket.io-client.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { live } from '../../../client/src/features/live/live-client';
import { useAuction } from '../../../client/src/features/auctions/api/auction-detail';
import { useAuctionList, type ListParams } from '../../../client/src/features/auctions/api/auctions-list';
import { useBids, usePlaceBid } from '../../../client/src/features/auctions/api/bids';
import { setOffset } from '../../../client/src/lib/clock';
import type { AppSocket } from '../../../client/src/lib/socket';
import type { AuctionCard, Paged } from '@shared/schemas/auctions';
import type { BidResponse as Bid, PlacedBidResponse } from '@shared/schemas/bids';
import { END, auctionCard, auctionDetail } from './fixtures';

const ME = 7;
const PARAMS: ListParams = { page: 1, q: '', sort: 'endDateAsc', category: '' };
const page = (...cards: AuctionCard[]): Paged<AuctionCard> => ({ count: cards.length, next: null, previous: null, results: cards });
const first: Bid = { id: 10, bidder: 8, bidder_name: 'Bojan', amount: 1100, created_at: '2026-04-21T10:00:00.000Z', auto: false, buy_now: false };
const mine: Bid = { id: 11, bidder: ME, bidder_name: 'Ja', amount: 1200, created_at: '2026-04-22T10:00:00.000Z', auto: false, buy_now: false };
const placed: PlacedBidResponse = { ...mine, current_price: 1200, bid_count: 2, end_date: END, leading: true };
const event = { auction_id: 1, seq: 2, bid: mine, current_price: 1200, bid_count: 2, end_date: END, reserve_met: null };

/** The server as fetch sees it; every call is recorded. */
function countedFetch(myBiddings = page(auctionCard())) {
  const calls: string[] = [];
  document.cookie = 'csrftoken=test-token; path=/';
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = new URL(input, 'http://localhost').pathname;
      calls.push(`${method} ${path}`);
      if (method === 'POST' && path === '/api/bids/') return json(placed, 201);
      if (path === '/api/auction/1/') return json(auctionDetail());
      if (path === '/api/bids/1/') return json([first]);
      if (path === '/api/auctions/') return json(page(auctionCard()));
      if (path === '/api/all-my-biddings/') return json(myBiddings);
      return json({ detail: 'Not found' }, 404);
    }),
  );
  return {
    calls,
    /** GETs of the bid history and of any list since `from`. */
    refetches: (from: number) => calls.slice(from).filter((c) => c === 'GET /api/bids/1/' || c === 'GET /api/auctions/' || c === 'GET /api/all-my-biddings/'),
  };
}

/** Connects at once and answers auction:join (snapshot at seq 1) and time:sync. */
function scriptedSocket() {
  const listeners = new Map<string, Set<(...a: unknown[]) => void>>();
  const fire = (name: string, ...args: unknown[]) => {
    for (const l of [...(listeners.get(name) ?? [])]) l(...args);
  };
  const answer = async (name: string, payload: unknown) => {
    if (name === 'auction:join') return { ok: true, server_time: Date.now(), seq: 1, auction: auctionDetail() };
    if (name === 'time:sync') return { client_time: (payload as { client_time: number }).client_time, server_time: Date.now() };
    return { ok: true, auctions: [] };
  };
  const socket = {
    connected: false,
    on: (name: string, l: (...a: unknown[]) => void) => listeners.set(name, (listeners.get(name) ?? new Set()).add(l)),
    off: (name: string, l: (...a: unknown[]) => void) => listeners.get(name)?.delete(l),
    connect: () =>
      queueMicrotask(() => {
        socket.connected = true;
        fire('connect');
      }),
    disconnect: () => void (socket.connected = false),
    emit: (name: string, payload: unknown, ack?: (r: unknown) => void) => void answer(name, payload).then((r) => ack?.(r)),
    timeout: () => ({ emitWithAck: answer }),
  };
  return { socket: socket as unknown as AppSocket, fire };
}

let release: (() => void) | undefined;
afterEach(() => {
  release?.();
  release = undefined;
  live.stop();
  live.setUser(null);
  setOffset(0);
  vi.unstubAllGlobals();
});

/** The detail page's queries and a list's, all mounted (an invalidation would refetch them at once). */
function mountScreen(qc: QueryClient) {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
  return renderHook(
    () => ({
      detail: useAuction(1),
      history: useBids(1),
      list: useAuctionList('all', PARAMS),
      mine: useAuctionList('bids', PARAMS),
      place: usePlaceBid(1),
    }),
    { wrapper },
  );
}

async function settled(qc: QueryClient) {
  await waitFor(() => expect(qc.isFetching()).toBe(0));
}

async function followedScreen(myBiddings?: Paged<AuctionCard>) {
  const net = countedFetch(myBiddings);
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const { socket, fire } = scriptedSocket();
  live.start(qc, socket);
  live.setUser(ME);
  release = live.acquireDetail(1);
  const view = mountScreen(qc);
  await waitFor(() => expect(live.ready.get().has(1)).toBe(true));
  await waitFor(() => expect(view.result.current.history.data).toBeDefined());
  await settled(qc);
  return { net, qc, fire, view };
}

function expectPatched(view: ReturnType<typeof mountScreen>) {
  const now = view.result.current;
  expect(now.history.data!.map((b) => b.id)).toEqual([10, 11]);
  expect(now.detail.data).toMatchObject({ current_price: 1200, bid_count: 2 });
  expect(now.list.data!.results[0]).toMatchObject({ current_price: 1200, bid_count: 2 });
  expect(now.mine.data!.results[0]).toMatchObject({ current_price: 1200, bid_count: 2 });
}

describe('my own bid while the auction is followed live', () => {
  it('the 201 first, then its bid:placed: the history and the lists are patched, not refetched', async () => {
    const { net, qc, fire, view } = await followedScreen();
    const before = net.calls.length;
    await act(() => view.result.current.place.mutateAsync(1200));
    await act(async () => fire('bid:placed', event));
    await new Promise((r) => setTimeout(r, 50));
    await settled(qc);
    expect(net.calls.slice(before)).toEqual(['POST /api/bids/']);
    expect(net.refetches(before)).toEqual([]);
    expectPatched(view);
  });

  it('the bid:placed first, then the 201: the same, and the history holds the bid once', async () => {
    const { net, qc, fire, view } = await followedScreen();
    const before = net.calls.length;
    await act(async () => fire('bid:placed', event));
    await act(() => view.result.current.place.mutateAsync(1200));
    await new Promise((r) => setTimeout(r, 50));
    await settled(qc);
    expect(net.refetches(before)).toEqual([]);
    expectPatched(view);
  });

  it('my first bid there: the auctions-I-bid-on list, which no event tells, is marked stale, not refetched now', async () => {
    const { net, qc, fire, view } = await followedScreen(page());
    const before = net.calls.length;
    await act(() => view.result.current.place.mutateAsync(1200));
    await act(async () => fire('bid:placed', event));
    await new Promise((r) => setTimeout(r, 50));
    await settled(qc);
    expect(net.refetches(before)).toEqual([]);
    expect(qc.getQueryState(['auctions', 'list', 'bids', PARAMS])?.isInvalidated).toBe(true);
    expect(qc.getQueryState(['auctions', 'list', 'all', PARAMS])?.isInvalidated).toBe(false);
  });
});

describe('my own bid without the live layer', () => {
  it('nothing else will tell: the 201 refetches the history and the lists on screen', async () => {
    const net = countedFetch();
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
    const view = mountScreen(qc);
    await waitFor(() => expect(view.result.current.history.data).toBeDefined());
    await settled(qc);
    const before = net.calls.length;
    await act(() => view.result.current.place.mutateAsync(1200));
    await settled(qc);
    expect(net.refetches(before).sort()).toEqual(['GET /api/all-my-biddings/', 'GET /api/auctions/', 'GET /api/bids/1/']);
    expect(view.result.current.detail.data).toMatchObject({ current_price: 1200, bid_count: 2 });
  });
});
