import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
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

const paged = <T,>(results: T[], count = results.length, page = 1, size = 20) => ({
  count,
  next: page * size < count ? page + 1 : null,
  previous: page > 1 ? page - 1 : null,
  results,
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
        body: paged([{ id: 5, first_name: 'Marko', email: 'marko@primer.rs', is_verified: true, is_superuser: false, is_blocked: blocked, created_at: '2025-01-01T00:00:00Z' }]),
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

    fireEvent.click(screen.getByRole('tab', { name: 'Korisnici' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Blokiraj: Marko' }));
    expect(await screen.findByRole('button', { name: 'Odblokiraj: Marko' })).toBeTruthy();
    expect(screen.getByText('Blokiran')).toBeTruthy();
  });

  it('shows the spec error text when a delete fails', async () => {
    stubFetch({
      ...loggedIn(ADMIN),
      'GET /api/all-auction-items/': { body: { count: 1, next: null, previous: null, results: [card(10, 'Gitara', 'active', 0)] } },
      'DELETE /api/auctionItems/delete/10/': { status: 404, body: { detail: 'Aukcija ne postoji.' } },
      'GET /api/admin/users/': { body: paged([]) },
    });
    renderApp('/admin/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Obriši: Gitara' }, { timeout: 5000 }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Da' }));
    expect(await screen.findByText('Not Found: Aukcija ne postoji.')).toBeTruthy();
  });
});

describe('AdminDashboardPage: finding things past the first page', () => {
  const user = (id: number, name: string, email: string) => ({ id, first_name: name, email, is_verified: true, is_superuser: false, is_blocked: false, created_at: '' });
  const search = (path: string) => new URLSearchParams(path.split('?')[1] ?? '');

  it('debounces the auction search into the URL and the request, back to page 1; status and sort too; back button restores', async () => {
    const calls = stubFetch({
      ...loggedIn(ADMIN),
      'GET /api/all-auction-items/': () => {
        const last = search(calls.filter((c) => c.path.startsWith('/api/all-auction-items/')).at(-1)!.path);
        if (last.get('status') === 'ended') return { body: paged([], 0) };
        if (last.get('q') === 'gitara') return { body: paged([card(77, 'Gitara Fender', 'active', 2)]) };
        const page = Number(last.get('page'));
        return { body: paged([card(page, `Predmet na strani ${page}`, 'active', 0)], 45, page) };
      },
    });
    const { router } = renderApp('/admin/dashboard?page=2');
    await screen.findByText('Predmet na strani 2', {}, { timeout: 5000 });
    expect(screen.getByText('Strana 2 / 3')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Pretraga aukcija'), { target: { value: '  gitara ' } });
    // Nothing is sent while typing…
    expect(calls.filter((c) => c.path.includes('q=')).length).toBe(0);
    // …then once the typing pauses: q in the URL, page back to 1.
    await screen.findByText('Gitara Fender', {}, { timeout: 3000 });
    expect(router.state.location.search).toBe('?q=gitara');
    expect(search(calls.at(-1)!.path).get('page')).toBe('1');
    expect(screen.queryByRole('navigation', { name: 'Strane: Sve aukcije' })).toBeNull();

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'ended' } });
    await screen.findByText('Nema rezultata za „gitara“.');
    expect(router.state.location.search).toBe('?q=gitara&status=ended');

    fireEvent.change(screen.getByLabelText('Sortiranje'), { target: { value: 'bidsDesc' } });
    await waitFor(() => expect(router.state.location.search).toBe('?q=gitara&status=ended&sort=bidsDesc'));
    expect(search(calls.at(-1)!.path).get('sort')).toBe('bidsDesc');

    // Back, back: the search result again, the input follows the URL.
    await act(() => router.navigate(-2));
    await screen.findByText('Gitara Fender');
    expect((screen.getByLabelText('Pretraga aukcija') as HTMLInputElement).value.trim()).toBe('gitara');
    await act(() => router.navigate(-1));
    await screen.findByText('Predmet na strani 2');
    expect((screen.getByLabelText('Pretraga aukcija') as HTMLInputElement).value).toBe('');
  });

  it('pages and searches users on the server; the tab and search stay in the URL', async () => {
    const calls = stubFetch({
      ...loggedIn(ADMIN),
      'GET /api/all-auction-items/': { body: paged([]) },
      'GET /api/admin/users/': () => {
        const last = search(calls.filter((c) => c.path.startsWith('/api/admin/users/')).at(-1)!.path);
        if (last.get('q') === 'clan37') return { body: paged([user(37, 'Član 37', 'clan37@primer.rs')]) };
        if (last.get('q')) return { body: paged([]) };
        const page = Number(last.get('page'));
        return { body: paged([user(page, `Korisnik sa strane ${page}`, `k${page}@primer.rs`)], 45, page) };
      },
    });
    const { router } = renderApp('/admin/dashboard');
    fireEvent.click(await screen.findByRole('tab', { name: 'Korisnici' }, { timeout: 5000 }));
    await screen.findByText('Korisnik sa strane 1');
    expect(screen.getByRole('tab', { name: 'Korisnici' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Sledeća' }));
    await screen.findByText('Korisnik sa strane 2');
    expect(router.state.location.search).toBe('?tab=korisnici&page=2');

    fireEvent.change(screen.getByLabelText('Pretraga korisnika'), { target: { value: 'clan37' } });
    await screen.findByText('clan37@primer.rs', {}, { timeout: 3000 });
    expect(router.state.location.search).toBe('?tab=korisnici&q=clan37');
    expect(search(calls.at(-1)!.path).get('page')).toBe('1');

    fireEvent.change(screen.getByLabelText('Pretraga korisnika'), { target: { value: 'niko' } });
    await screen.findByText('Nema rezultata za „niko“.', {}, { timeout: 3000 });
  });

  it('shows an error with a retry when the list cannot load', async () => {
    let fail = true;
    stubFetch({
      ...loggedIn(ADMIN),
      'GET /api/all-auction-items/': () => (fail ? { status: 500, body: { detail: 'x' } } : { body: paged([card(1, 'Sat', 'active', 0)]) }),
    });
    renderApp('/admin/dashboard');
    const retry = await screen.findByRole('button', { name: 'Pokušaj ponovo' }, { timeout: 5000 });
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByText('Sat')).toBeTruthy();
  });
});
