import { describe, it, expect } from 'vitest';
import { screen, fireEvent } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BidBox } from '../../../client/src/features/auctions/components/BidBox';
import { checkBidAmount } from '../../../client/src/features/auctions/components/bid-validation';
import { renderWithApp } from './render';

describe('bid amount check', () => {
  it('asks for at least the current price + 10', () => {
    expect(checkBidAmount('', 1000)).toEqual({ error: 'Minimalna ponuda je 1010 din' });
    expect(checkBidAmount('1009', 1000)).toEqual({ error: 'Minimalna ponuda je 1010 din' });
    expect(checkBidAmount('abc', 1000)).toEqual({ error: 'Minimalna ponuda je 1010 din' });
    expect(checkBidAmount('1010', 1000)).toEqual({ amount: 1010 });
  });
});

describe('<BidBox>', () => {
  it("shows 'Minimalna ponuda je {current+10} din' for an empty or too low amount, and clears it on edit", async () => {
    const user = userEvent.setup();
    renderWithApp(<BidBox auctionId={1} currentPrice={12500} />);
    await user.click(screen.getByRole('button', { name: 'Licitiraj' }));
    expect(screen.getByRole('alert').textContent).toBe('Minimalna ponuda je 12510 din');
    const input = screen.getByLabelText('Vaša ponuda (din)');
    await user.type(input, '12505');
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Licitiraj' }));
    expect(screen.getByRole('alert').textContent).toBe('Minimalna ponuda je 12510 din');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it("asks 'Potvrdi licitaciju' with the amount before posting", async () => {
    const user = userEvent.setup();
    renderWithApp(<BidBox auctionId={1} currentPrice={12500} />);
    await user.type(screen.getByLabelText('Vaša ponuda (din)'), '13000');
    await user.click(screen.getByRole('button', { name: 'Licitiraj' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Potvrdi licitaciju' });
    expect(dialog.textContent).toContain('Da li ste sigurni da želite da licitirate 13000 dinara za ovu aukciju?');
    expect(screen.getByRole('button', { name: 'Da' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Otkaži' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    // Nothing was accepted: no success dialog.
    expect(screen.queryByText('Uspesna licitacija!')).toBeNull();
  });

  it('sends a visitor to /login instead of bidding', async () => {
    renderWithApp(<BidBox auctionId={1} currentPrice={100} />, { path: '/aukcija/1', user: null });
    fireEvent.change(screen.getByLabelText('Vaša ponuda (din)'), { target: { value: '500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Licitiraj' }));
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });
});
