import { describe, it, expect, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { ApiError, NetworkError } from '../../../client/src/lib/api';
import { deleteErrorMessage } from '../../../client/src/features/auctions/api/delete-auction';
import { bidErrorMessage } from '../../../client/src/features/auctions/components/BidBox';
import { AuctionCard } from '../../../client/src/features/auctions/components/AuctionCard';
import { renderWithApp } from './render';

describe('delete errors (spec §8)', () => {
  it('prefixes the status and adds the detail or the fallback', () => {
    expect(deleteErrorMessage(new ApiError(400, { detail: 'Aukcija ima ponude.' }))).toBe('Bad Request: Aukcija ima ponude.');
    expect(deleteErrorMessage(new ApiError(403, {}))).toBe('Forbidden: An unexpected error occurred');
    expect(deleteErrorMessage(new ApiError(404, { detail: 'Nema je.' }))).toBe('Not Found: Nema je.');
    expect(deleteErrorMessage(new ApiError(500, {}))).toBe('Server Error: An unexpected error occurred');
    expect(deleteErrorMessage(new ApiError(409, { detail: 'x' }))).toBe('Unexpected Error: x');
    expect(deleteErrorMessage(new NetworkError())).toBe('Network error: Please check your internet connection.');
    expect(deleteErrorMessage(new Error('boom'))).toBe('Error deleting auction item. Please try again later.');
  });
});

describe('bid errors (spec §8)', () => {
  it('shows the first amount message, the generic text, or the network text', () => {
    expect(bidErrorMessage(new ApiError(400, { amount: ['Minimalna ponuda je 1510 din'] }))).toBe('Minimalna ponuda je 1510 din');
    expect(bidErrorMessage(new ApiError(400, {}))).toBe('An error occurred. Please try again.');
    expect(bidErrorMessage(new NetworkError())).toBe('No response from the server. Please try again later.');
    expect(bidErrorMessage(new TypeError('x'))).toBe('An error occurred while submitting your bid.');
  });
});

const card = {
  id: 3,
  title: 'Stari sat',
  description: 'jedan dva tri četiri pet šest sedam osam devet deset jedanaest',
  current_price: 12500,
  end_date: new Date(Date.now() + 90_000).toISOString(),
  category: 'jewelry',
  city: 'Novi Sad',
  seller: 7,
  first_image: '/media/x.webp',
  // Every image of the auction, as on the detail (issue 11): the card still shows only first_image.
  images: [
    { id: 1, image: '/media/x-large.webp', thumbnail: '/media/x.webp' },
    { id: 2, image: '/media/y-large.webp', thumbnail: '/media/y.webp' },
  ],
  bid_count: 0,
  status: 'active' as const,
  watched: false,
  buy_now_price: null,
  has_reserve: false,
  reserve_met: null,
  outcome: null,
  relisted_as: null,
};

describe('<AuctionCard>', () => {
  it('shows title, price in RSD, the preview, bid count, countdown, a lazy image and links to the detail', () => {
    const { container } = renderWithApp(<AuctionCard auction={card} />);
    expect(screen.getByRole('link', { name: 'Stari sat' }).getAttribute('href')).toBe('/aukcija/3');
    expect(screen.getByText('12.500 RSD')).toBeTruthy();
    expect(screen.getByText('jedan dva tri četiri pet šest sedam osam devet deset...')).toBeTruthy();
    expect(screen.getByText('Broj ponuda: 0')).toBeTruthy();
    expect(screen.getByText(/^1m 3\ds$/)).toBeTruthy();
    const img = container.querySelector('img')!;
    // The card's one picture is first_image; the card's other images (issue 11's `images`) are not shown.
    expect(container.querySelectorAll('img')).toHaveLength(1);
    expect(img.getAttribute('src')).toBe('/media/x.webp');
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('sizes')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offers delete only without bids, and marks an ended auction in own lists', () => {
    const onDelete = vi.fn();
    renderWithApp(
      <>
        <AuctionCard auction={{ ...card, id: 4, title: 'Bez ponuda' }} onDelete={onDelete} markEnded />
        <AuctionCard auction={{ ...card, id: 5, title: 'Sa ponudom', bid_count: 2 }} onDelete={onDelete} markEnded />
        <AuctionCard auction={{ ...card, id: 6, title: 'Gotova', status: 'ended', end_date: new Date(Date.now() - 1000).toISOString() }} markEnded />
      </>,
    );
    screen.getByRole('button', { name: 'Obriši aukciju Bez ponuda' }).click();
    expect(onDelete).toHaveBeenCalledWith(expect.objectContaining({ id: 4 }));
    expect(screen.queryByRole('button', { name: 'Obriši aukciju Sa ponudom' })).toBeNull();
    expect(screen.getByText('Završena')).toBeTruthy();
    expect(screen.getByText('Završena aukcija')).toBeTruthy();
  });
});
