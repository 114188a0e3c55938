import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { slotPosition } from '../../../client/src/features/landing/carousel';
import { loggedOut, renderApp, stubFetch } from '../app/test-utils';

afterEach(() => vi.unstubAllGlobals());

describe('carousel positions', () => {
  it('centre, neighbours either side, others hidden, wrapping', () => {
    expect([0, 1, 2, 3, 4].map((i) => slotPosition(i, 0, 5))).toEqual(['center', 'next', 'hidden', 'hidden', 'prev']);
    expect([0, 1, 2, 3, 4].map((i) => slotPosition(i, 4, 5))).toEqual(['next', 'hidden', 'hidden', 'prev', 'center']);
    expect([0, 1].map((i) => slotPosition(i, 0, 2))).toEqual(['center', 'next']);
    expect(slotPosition(0, 0, 1)).toBe('center');
  });
});

describe('LandingPage', () => {
  const best = [
    { id: 1, title: 'Bicikl', current_price: 12500, first_image: '/media/1.webp' },
    { id: 2, title: 'Gitara', current_price: 900, first_image: null },
    { id: 3, title: 'Sat', current_price: 3000, first_image: '/media/3.webp' },
  ];

  it('has the buttons and the carousel; prev/next wrap; a card goes to /aukcije', async () => {
    stubFetch({ ...loggedOut, 'GET /api/auctions/best/': { body: best } });
    const app = renderApp('/');
    await screen.findByRole('heading', { name: 'Popularne aukcije' }, { timeout: 5000 });
    expect(screen.getByRole('link', { name: 'Pogledaj Aukcije' }).getAttribute('href')).toBe('/aukcije');
    expect(screen.getAllByRole('link', { name: 'Postavi Aukciju' }).some((l) => l.getAttribute('href') === '/nova-aukcija')).toBe(true);
    await screen.findByText('Bicikl');
    const center = () => document.querySelector('[data-position="center"]')!.textContent;
    expect(center()).toContain('Bicikl');
    expect(center()).toContain('12.500 RSD');
    // Missing first_image → placeholder.
    const gitara = screen.getByText('Gitara').closest('button')!.querySelector('img')!;
    expect(gitara.getAttribute('src')).toBe('/placeholder.svg');
    fireEvent.click(screen.getByRole('button', { name: 'Prethodna aukcija' }));
    expect(center()).toContain('Sat');
    fireEvent.click(screen.getByRole('button', { name: 'Sledeća aukcija' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sledeća aukcija' }));
    expect(center()).toContain('Gitara');
    fireEvent.click(screen.getByText('Gitara').closest('button')!);
    await waitFor(() => expect(app.pathname()).toBe('/aukcije'));
  });
});
