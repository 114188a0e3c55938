/**
 * Issue 25 in the client: 'Kupi odmah za {price} RSD' with its confirmation ('Da' / 'Ne'), the answer applied
 * to the cached detail, a refusal in the server's words, a visitor sent to /login; the reserve line on a card
 * (the amount only when the server sent it, i.e. to the seller). fetch (the network boundary) answers from a table.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BuyNowBox } from '../../../client/src/features/auctions/components/BuyNowBox';
import { ReserveStatus } from '../../../client/src/features/auctions/components/SellingOptions';
import { auctionKey } from '../../../client/src/features/auctions/api/auction-detail';
import type { AuctionDetail } from '@shared/schemas/auctions';
import { auctionDetail } from '../live/fixtures';
import { stubFetch, type StubHandler } from '../app/test-utils';
import { renderWithApp } from './render';

afterEach(() => vi.unstubAllGlobals());

const BUY = '/api/auctions/1/buy-now/';

function renderBox(table: Record<string, StubHandler>, user?: null) {
  const calls = stubFetch(table);
  const view = renderWithApp(<BuyNowBox auctionId={1} price={8000} />, {
    ...(user === null ? { user: null } : {}),
    seed: (qc) => qc.setQueryData(auctionKey(1), auctionDetail({ bid_count: 0, current_price: 1000, buy_now_price: 8000 })),
  });
  return { calls, ...view };
}

describe('"Kupi odmah"', () => {
  it('asks first ("Ne" sends nothing), then POSTs with the CSRF header and ends the cached detail', async () => {
    const user = userEvent.setup();
    const { calls, qc } = renderBox({ [`POST ${BUY}`]: { status: 201, body: { auction_id: 1, price: 8000, winner: 7 } } });
    await user.click(screen.getByRole('button', { name: 'Kupi odmah za 8.000 RSD' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Kupi odmah' });
    expect(dialog.textContent).toContain('Da li ste sigurni da želite da kupite ovaj predmet za 8.000 dinara?');
    await user.click(within(dialog).getByRole('button', { name: 'Ne' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Kupi odmah za 8.000 RSD' }));
    dialog = screen.getByRole('alertdialog', { name: 'Kupi odmah' });
    await user.click(within(dialog).getByRole('button', { name: 'Da' }));
    await vi.waitFor(() => expect(qc.getQueryData<AuctionDetail>(auctionKey(1))).toMatchObject({ status: 'ended', winner: 7, current_price: 8000, outcome: 'sold', buy_now_price: null }));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe(BUY);
    expect(post.headers['X-CSRFToken']).toBe('test-token');
  });

  it("shows the server's refusal", async () => {
    const user = userEvent.setup();
    renderBox({ [`POST ${BUY}`]: { status: 400, body: { detail: 'Opcija „Kupi odmah” više nije dostupna.', message: 'x', code: 'buy_now_unavailable' } } });
    await user.click(screen.getByRole('button', { name: 'Kupi odmah za 8.000 RSD' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Kupi odmah' })).getByRole('button', { name: 'Da' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Opcija „Kupi odmah” više nije dostupna.');
  });

  it('sends a visitor to /login', async () => {
    const user = userEvent.setup();
    renderBox({}, null);
    await user.click(screen.getByRole('button', { name: 'Kupi odmah za 8.000 RSD' }));
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });
});

describe('the reserve line', () => {
  it('says whether it is met, with the amount only when the server sent it', () => {
    const view = renderWithApp(
      <>
        <ReserveStatus auction={{ has_reserve: true, reserve_met: false, outcome: null }} className="a" />
        <ReserveStatus auction={{ has_reserve: true, reserve_met: true, outcome: null }} className="b" />
        <ReserveStatus auction={{ has_reserve: true, reserve_met: false, outcome: null, reserve_price: 5000 }} className="c" />
        <ReserveStatus auction={{ has_reserve: false, reserve_met: null, outcome: null }} className="d" />
      </>,
    );
    expect(view.getAllByTestId('reserve-status').map((p) => p.textContent)).toEqual([
      'Rezervna cena nije dostignuta',
      'Rezervna cena je dostignuta',
      'Rezervna cena nije dostignuta · Vaša rezervna cena: 5.000 din',
    ]);
  });
});
