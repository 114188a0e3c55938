/**
 * Issue 26 in the client: the seller's tools on an own auction. 'Izmeni' (a link to the create form, prefilled)
 * while it is open without bids; 'Ponovo postavi' once it ended unsold or below the reserve; nothing for a sold
 * one or one with bids; a link to the new auction once relisted.
 */
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import SellerTools from '../../../client/src/features/auctions/components/SellerTools';
import { auctionCard } from '../live/fixtures';
import { renderWithApp } from './render';

const future = () => new Date(Date.now() + 3_600_000).toISOString();
const past = () => new Date(Date.now() - 3_600_000).toISOString();

describe('<SellerTools>', () => {
  it("offers 'Izmeni' on an open auction without bids, linking to the create form of that auction", () => {
    renderWithApp(<SellerTools auction={auctionCard({ id: 4, bid_count: 0, end_date: future() })} />);
    expect(screen.getByRole('link', { name: 'Izmeni' }).getAttribute('href')).toBe('/nova-aukcija?izmena=4');
    expect(screen.queryByRole('button', { name: 'Ponovo postavi' })).toBeNull();
  });

  it('offers nothing on an open auction with bids, nor on a sold one', () => {
    const nothing = () => {
      expect(screen.queryByRole('link')).toBeNull();
      expect(screen.queryByRole('button')).toBeNull();
    };
    const open = renderWithApp(<SellerTools auction={auctionCard({ bid_count: 2, end_date: future() })} />);
    nothing();
    open.unmount();
    renderWithApp(<SellerTools auction={auctionCard({ bid_count: 2, end_date: past(), status: 'ended', outcome: 'sold' })} />);
    nothing();
  });

  it("offers 'Ponovo postavi' once it ended unsold or below the reserve, and opens the dialog with the duration and price", async () => {
    renderWithApp(<SellerTools auction={auctionCard({ bid_count: 0, end_date: past(), status: 'ended', outcome: 'unsold', current_price: 1200 })} />);
    screen.getByRole('button', { name: 'Ponovo postavi' }).click();
    const dialog = await screen.findByRole('dialog', { name: 'Ponovo postavi aukciju' });
    expect((screen.getByLabelText('Početna cena (RSD)') as HTMLInputElement).value).toBe('1200');
    expect((screen.getByLabelText('Trajanje') as HTMLSelectElement).value).toBe('4');
    expect(dialog).toBeTruthy();
  });

  it('links to the new auction once relisted', () => {
    renderWithApp(<SellerTools auction={auctionCard({ end_date: past(), status: 'ended', outcome: 'reserve_not_met', relisted_as: 9 })} />);
    expect(screen.getByRole('link', { name: 'Ponovo postavljena: pogledajte novu aukciju' }).getAttribute('href')).toBe('/aukcija/9');
  });
});
