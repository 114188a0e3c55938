/**
 * Issue 14's watchlist in the client: the "Prati" toggle is optimistic (the detail, its count and every cached
 * card change before the server answers) and rolled back with a Serbian message when the server refuses; the
 * seller gets no toggle; a visitor goes to /login.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QueryClient } from '@tanstack/react-query';
import { WatchButton } from '../../../client/src/features/auctions/components/WatchButton';
import { AuctionCard } from '../../../client/src/features/auctions/components/AuctionCard';
import { auctionKey, useAuction } from '../../../client/src/features/auctions/api/auction-detail';
import { auctionListQuery } from '../../../client/src/features/auctions/api/auctions-list';
import { detailWatched, pageWatched } from '../../../client/src/features/auctions/api/watchlist';
import type { AuctionCard as Card, AuctionDetail, Paged } from '@shared/schemas/auctions';
import { auctionCard, auctionDetail } from '../live/fixtures';
import { renderWithApp } from './render';

afterEach(() => vi.unstubAllGlobals());

// Ends an hour from now: the card shows an open auction.
const card = (over: Partial<Card> = {}): Card => auctionCard({ end_date: new Date(Date.now() + 3_600_000).toISOString(), ...over });
const LIST = auctionListQuery('all', { page: 1, q: '', sort: 'endDateAsc', category: '' }).queryKey;

/** fetch that answers only when the test says so (the toggle must change before the answer). */
function deferredFetch() {
  let release: (r: Response) => void = () => undefined;
  const calls: { method: string; path: string; body: unknown }[] = [];
  document.cookie = 'csrftoken=test-token; path=/';
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      calls.push({ method: init?.method ?? 'GET', path: input, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      return new Promise<Response>((resolve) => (release = resolve));
    }),
  );
  const answer = (status: number, body?: unknown) =>
    act(async () => release(new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })));
  return { calls, answer };
}

function seedWatch(watched: boolean, count: number) {
  return (qc: QueryClient) => {
    qc.setQueryData(auctionKey(1), auctionDetail({ watched, watch_count: count }));
    qc.setQueryData(LIST, { count: 1, next: null, previous: null, results: [card({ watched })] } satisfies Paged<Card>);
  };
}

/** The detail's toggle, fed from the cached detail as on the page. */
function DetailToggle() {
  const d = useAuction(1).data!;
  return <WatchButton auctionId={1} watched={d.watched} variant="detail" />;
}

describe('pure patches', () => {
  it('the count moves by one only when the state changes; the server’s count wins', () => {
    const d = auctionDetail({ watched: false, watch_count: 4 });
    expect(detailWatched(d, true)).toMatchObject({ watched: true, watch_count: 5 });
    expect(detailWatched(d, false)).toBe(d);
    expect(detailWatched(d, true, 9)).toMatchObject({ watch_count: 9 });
    const page: Paged<Card> = { count: 2, next: null, previous: null, results: [card(), card({ id: 2 })] };
    const next = pageWatched(page, 1, true)!;
    expect(next.results[0]!.watched).toBe(true);
    expect(next.results[1]).toBe(page.results[1]);
    expect(pageWatched(page, 3, true)).toBe(page);
  });
});

describe('"Prati"', () => {
  it('POSTs, shows the new state and count at once, then the server’s count', async () => {
    const { calls, answer } = deferredFetch();
    const { qc } = renderWithApp(<DetailToggle />, { seed: seedWatch(false, 2) });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Prati' }));
    await waitFor(() => expect(qc.getQueryData<AuctionDetail>(auctionKey(1))).toMatchObject({ watched: true, watch_count: 3 }));
    expect(qc.getQueryData<Paged<Card>>(LIST)!.results[0]!.watched).toBe(true);
    // Before the server answered.
    expect((await screen.findByRole('button', { name: 'Pratite' })).getAttribute('aria-pressed')).toBe('true');
    expect(calls.at(-1)).toMatchObject({ method: 'POST', path: '/api/watchlist/', body: { auction_item_id: 1 } });
    await answer(201, { auction_item_id: 1, watched: true, watch_count: 7 });
    await waitFor(() => expect(qc.getQueryData<AuctionDetail>(auctionKey(1))!.watch_count).toBe(7));
    expect(screen.getByRole('button', { name: 'Pratite' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('an error puts the state back and says so in Serbian', async () => {
    const { calls, answer } = deferredFetch();
    const { qc } = renderWithApp(<DetailToggle />, { seed: seedWatch(true, 5) });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Pratite' }));
    await waitFor(() => expect(qc.getQueryData<AuctionDetail>(auctionKey(1))).toMatchObject({ watched: false, watch_count: 4 }));
    expect(calls.at(-1)).toMatchObject({ method: 'DELETE', path: '/api/watchlist/1/' });
    await answer(500, { detail: 'Greška' });
    expect((await screen.findByRole('alert')).textContent).toBe('Praćenje nije uspelo. Pokušajte ponovo.');
    expect(qc.getQueryData<AuctionDetail>(auctionKey(1))).toMatchObject({ watched: true, watch_count: 5 });
    expect(qc.getQueryData<Paged<Card>>(LIST)!.results[0]!.watched).toBe(true);
  });

  it('cards: named after their auction, pressed when watched; none for the seller; a visitor goes to /login', async () => {
    renderWithApp(
      <>
        <AuctionCard auction={card({ watched: true })} />
        <AuctionCard auction={card({ id: 2, title: 'Moja lampa', seller: 7 })} />
      </>,
    );
    const toggle = screen.getByRole('button', { name: 'Pratite aukciju Gramofon' });
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(toggle.querySelector('span')!.textContent).toBe('Pratite');
    expect(screen.queryByRole('button', { name: /Moja lampa/ })).toBeNull();
  });

  it('sends a visitor to /login', async () => {
    renderWithApp(<AuctionCard auction={card()} />, { user: null, path: '/aukcije' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Prati aukciju Gramofon' }));
    expect(await screen.findByText('login page')).toBeTruthy();
  });
});
