import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { loggedIn, renderApp, stubFetch, USER } from '../app/test-utils';

afterEach(() => vi.unstubAllGlobals());

const ADMIN = { ...USER, id: 1, first_name: 'Admin', is_superuser: true };
const card = (id: number, title: string, status: 'active' | 'ended', bids: number) => ({
  id,
  title,
  description: 'opis',
  current_price: 1000,
  end_date: '2025-03-01T10:00:00Z',
  category: 'other',
  seller: 5,
  first_image: null,
  bid_count: bids,
  status,
});

describe('AdminDashboardPage', () => {
  it('is a 404 for a logged-in non-admin', async () => {
    stubFetch(loggedIn());
    renderApp('/admin/dashboard');
    expect(await screen.findByRole('heading', { name: '404 Greška' }, { timeout: 5000 })).toBeTruthy();
  });

  it('lists every auction (ended too) and deletes one after confirmation; blocks a user', async () => {
    let items = [card(10, 'Gitara', 'ended', 3), card(11, 'Sat', 'active', 0)];
    let blocked = false;
    const calls = stubFetch({
      ...loggedIn(ADMIN),
      'GET /api/all-auction-items/': () => ({ body: { count: items.length, next: null, previous: null, results: items } }),
      'DELETE /api/auctionItems/delete/10/': () => {
        items = items.filter((a) => a.id !== 10);
        return { status: 204 };
      },
      'GET /api/admin/users/': () => ({
        body: [{ id: 5, first_name: 'Marko', email: 'marko@primer.rs', is_verified: true, is_superuser: false, is_blocked: blocked, created_at: '2025-01-01T00:00:00Z' }],
      }),
      'POST /api/admin/users/5/block/': () => {
        blocked = true;
        return { body: { id: 5, first_name: 'Marko', email: 'marko@primer.rs', is_verified: true, is_superuser: false, is_blocked: true, created_at: '' } };
      },
    });
    renderApp('/admin/dashboard');
    await screen.findByText('Gitara', {}, { timeout: 5000 });
    expect(screen.getByText('Završena')).toBeTruthy();
    expect(calls.find((c) => c.path.startsWith('/api/all-auction-items/'))?.path).toContain('page=1');
    fireEvent.click(screen.getByRole('button', { name: 'Obriši: Gitara' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Obriši aukciju' });
    expect(within(dialog).getByText('Da li ste sigurni da želite da obrišete ovu aukciju?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Da' }));
    await waitFor(() => expect(screen.queryByText('Gitara')).toBeNull());
    expect(screen.getByText('Aukcija je obrisana.')).toBeTruthy();

    fireEvent.click(await screen.findByRole('button', { name: 'Blokiraj: Marko' }));
    expect(await screen.findByRole('button', { name: 'Odblokiraj: Marko' })).toBeTruthy();
    expect(screen.getByText('Blokiran')).toBeTruthy();
  });

  it('shows the spec error text when a delete fails', async () => {
    stubFetch({
      ...loggedIn(ADMIN),
      'GET /api/all-auction-items/': { body: { count: 1, next: null, previous: null, results: [card(10, 'Gitara', 'active', 0)] } },
      'DELETE /api/auctionItems/delete/10/': { status: 404, body: { detail: 'Aukcija ne postoji.' } },
      'GET /api/admin/users/': { body: [] },
    });
    renderApp('/admin/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Obriši: Gitara' }, { timeout: 5000 }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Da' }));
    expect(await screen.findByText('Not Found: Aukcija ne postoji.')).toBeTruthy();
  });
});
