/**
 * Issue 14 in the bid box: "Automatska ponuda" (the caller's maximum, the leader's line, refusals in the
 * server's words, a maximum beaten at once), a manual bid answered at once by someone's maximum, and the
 * 'automatska' mark in the bid history. fetch (the network boundary) answers from a table.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BidBox } from '../../../client/src/features/auctions/components/BidBox';
import { BidHistoryDialog } from '../../../client/src/features/auctions/components/BidHistoryDialog';
import { checkMaxAmount } from '../../../client/src/features/auctions/components/bid-validation';
import { auctionKey } from '../../../client/src/features/auctions/api/auction-detail';
import { bidsKey } from '../../../client/src/features/auctions/api/bids';
import type { AuctionDetail } from '@shared/schemas/auctions';
import { auctionDetail } from '../live/fixtures';
import { stubFetch, type StubHandler } from '../app/test-utils';
import { renderWithApp } from './render';

afterEach(() => vi.unstubAllGlobals());

const AUTO = '/api/auctions/1/auto-bid/';

function renderBox(table: Record<string, StubHandler>, price = 1500) {
  const calls = stubFetch(table);
  const view = renderWithApp(<BidBox auctionId={1} currentPrice={price} />, {
    seed: (qc) => qc.setQueryData(auctionKey(1), auctionDetail({ current_price: price })),
  });
  return { calls, ...view };
}

async function setMaximum(amount: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Maksimalna ponuda (din)'), amount);
  await user.click(screen.getByRole('button', { name: /maksimum/ }));
  const dialog = screen.getByRole('alertdialog', { name: 'Potvrdi automatsku ponudu' });
  expect(dialog.textContent).toContain(`maksimalnu ponudu od ${amount} dinara`);
  await user.click(within(dialog).getByRole('button', { name: 'Da' }));
}

describe('maximum check', () => {
  it('needs price + 10 without a maximum, and only raises an active one', () => {
    expect(checkMaxAmount('', 1500, null)).toEqual({ error: 'Maksimalna ponuda mora biti najmanje 1510 din' });
    expect(checkMaxAmount('1505', 1500, null)).toEqual({ error: 'Maksimalna ponuda mora biti najmanje 1510 din' });
    expect(checkMaxAmount('1510', 1500, null)).toEqual({ amount: 1510 });
    expect(checkMaxAmount('1900', 1500, 2000)).toEqual({ error: 'Maksimalnu ponudu možete samo povećati.' });
    expect(checkMaxAmount('2000', 1500, 2000)).toEqual({ amount: 2000 });
  });
});

describe('"Automatska ponuda" in the bid box', () => {
  it('explains itself in one line; the leader with a maximum sees it grouped like every price', async () => {
    renderBox({ [`GET ${AUTO}`]: { body: { max_amount: 12000 } } });
    expect(screen.getByRole('heading', { name: 'Automatska ponuda' })).toBeTruthy();
    expect(screen.getByText('Sistem licitira umesto vas, po 10 din, najviše do iznosa koji unesete.')).toBeTruthy();
    expect((await screen.findByTestId('auto-bid-leading')).textContent).toBe('Vodite. Vaša maksimalna ponuda: 12.000 din.');
    expect(screen.getByRole('button', { name: 'Povećaj maksimum' })).toBeTruthy();
  });

  it('PUTs the maximum with the CSRF header; leading → the leader line, the answer’s price in the detail', async () => {
    const { calls, qc } = renderBox({
      [`GET ${AUTO}`]: { body: { max_amount: null } },
      [`PUT ${AUTO}`]: { body: { max_amount: 3000, current_price: 1510, bid_count: 4, leading: true } },
    });
    await screen.findByRole('button', { name: 'Postavi maksimum' });
    await setMaximum('3000');
    expect((await screen.findByTestId('auto-bid-leading')).textContent).toBe('Vodite. Vaša maksimalna ponuda: 3.000 din.');
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe(AUTO);
    expect(put.body).toEqual({ max_amount: 3000 });
    expect(put.headers['X-CSRFToken']).toBe('test-token');
    expect(qc.getQueryData<AuctionDetail>(auctionKey(1))).toMatchObject({ current_price: 1510, bid_count: 4 });
  });

  it('a maximum beaten at once says so, with the new price, and shows no leader line', async () => {
    renderBox({
      [`GET ${AUTO}`]: { body: { max_amount: null } },
      [`PUT ${AUTO}`]: { body: { max_amount: 1800, current_price: 1810, bid_count: 6, leading: false } },
    });
    await setMaximum('1800');
    expect((await screen.findByRole('alert')).textContent).toBe('Vaša maksimalna ponuda je odmah nadmašena. Nova cena je 1.810 RSD.');
    expect(screen.queryByTestId('auto-bid-leading')).toBeNull();
  });

  it("shows the server's refusal: the max_amount field, else its detail", async () => {
    let answer = { status: 400, body: { max_amount: ['Minimalna ponuda je 1610 din'], detail: 'x', code: 'bid_too_low' } };
    renderBox({ [`GET ${AUTO}`]: { body: { max_amount: null } }, [`PUT ${AUTO}`]: () => answer });
    await setMaximum('1600');
    expect((await screen.findByRole('alert')).textContent).toBe('Minimalna ponuda je 1610 din');
    answer = { status: 400, body: { detail: 'Aukcija je završena.', code: 'auction_ended' } } as typeof answer;
    await userEvent.setup().clear(screen.getByLabelText('Maksimalna ponuda (din)'));
    await setMaximum('1700');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Aukcija je završena.'));
  });
});

describe('a manual bid answered at once by a maximum', () => {
  it('is shown as outbid with the new price, not as a success', async () => {
    const user = userEvent.setup();
    renderBox({
      [`GET ${AUTO}`]: { body: { max_amount: null } },
      'POST /api/bids/': {
        status: 201,
        body: { id: 9, bidder: 7, bidder_name: 'Marko', amount: 1600, created_at: '2026-11-24T10:00:00.000Z', auto: false, current_price: 1610, bid_count: 5, end_date: '2026-12-01T10:00:00.000Z', leading: false },
      },
    });
    await user.type(screen.getByLabelText('Vaša ponuda (din)'), '1600');
    await user.click(screen.getByRole('button', { name: 'Licitiraj' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Potvrdi licitaciju' })).getByRole('button', { name: 'Da' }));
    expect((await screen.findByTestId('bid-outbid')).textContent).toBe(
      'Vaša ponuda je odmah nadmašena automatskom ponudom drugog kupca. Nova cena je 1.610 RSD.',
    );
    expect(screen.queryByText('Uspesna licitacija!')).toBeNull();
  });
});

describe('bid history', () => {
  it("marks the rows a maximum wrote with 'automatska'", async () => {
    stubFetch({});
    renderWithApp(<BidHistoryDialog auctionId={1} title="Gramofon" open onClose={() => undefined} />, {
      seed: (qc) =>
        qc.setQueryData(bidsKey(1), [
          { id: 1, bidder: 8, bidder_name: 'Bojan', amount: 600, created_at: '2026-11-24T10:00:00.000Z', auto: false },
          { id: 2, bidder: 7, bidder_name: 'Ana', amount: 610, created_at: '2026-11-24T10:00:00.000Z', auto: true },
        ]),
    });
    const items = await screen.findAllByRole('listitem');
    expect(items[0]!.textContent).not.toContain('automatska');
    expect(items[1]!.textContent).toContain('Ana');
    expect(items[1]!.textContent).toContain('automatska');
    expect(items[1]!.textContent).toContain('610 Din.');
  });
});
