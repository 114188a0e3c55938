/**
 * Issue 23 in the client: /moje-prodaje and /moje-kupovine (the other party's contact and score, 'Oceni' with
 * the client's check, the answer), and /clan/{id}. The network is a stub table (tests/client/app/test-utils).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MemberProfile, MemberRating, SaleItem } from '@shared/schemas/sales';
import { loggedIn, renderApp, stubFetch } from '../app/test-utils';

afterEach(() => vi.unstubAllGlobals());

const FUTURE = new Date(Date.now() + 10 * 86_400_000).toISOString();
const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

const sale = (over: Partial<SaleItem> = {}): SaleItem => ({
  auction_id: 11,
  title: 'Gramofon',
  first_image: null,
  price: 1600,
  ended_at: '2026-11-20T10:00:00.000Z',
  role: 'seller',
  counterpart: { id: 9, first_name: 'Bojan Kupac', city: 'Niš', phone_number: '0644445556', email: 'bojan@primer.rs', rating: { positive: 3, negative: 1 }, blocked_by_viewer: false },
  my_rating: null,
  their_rating: null,
  rate_until: FUTURE,
  ...over,
});

describe('/moje-prodaje and /moje-kupovine', () => {
  it("shows the other party's contact and score, checks a negative rating in the form, then posts it", async () => {
    let rated = false;
    const calls = stubFetch({
      ...loggedIn(),
      'GET /api/sales/': () => ({
        body: page([rated ? sale({ my_rating: { id: 4, value: 'negative', comment: 'Kasnio dva dana.', created_at: '2026-11-21T10:00:00.000Z', reply: null } }) : sale()]),
      }),
      'POST /api/sales/11/rating/': () => {
        rated = true;
        return { status: 201, body: { id: 4, value: 'negative', comment: 'Kasnio dva dana.', created_at: '2026-11-21T10:00:00.000Z', reply: null } };
      },
    });
    renderApp('/moje-prodaje');
    await screen.findByRole('heading', { name: 'Prodati predmeti', level: 1 }, { timeout: 5000 });
    const card = await screen.findByTestId('sale-11');
    expect(within(card).getByRole('link', { name: 'Bojan Kupac' }).getAttribute('href')).toBe('/clan/9');
    expect(within(card).getByRole('link', { name: '0644445556' }).getAttribute('href')).toBe('tel:0644445556');
    expect(within(card).getByRole('link', { name: 'bojan@primer.rs' }).getAttribute('href')).toBe('mailto:bojan@primer.rs');
    expect(card.textContent).toContain('+3 / −1');
    expect(card.textContent).toContain('1.600 RSD');
    expect(calls.some((c) => c.path.startsWith('/api/sales/?role=seller&page=1'))).toBe(true);

    fireEvent.click(within(card).getByRole('button', { name: 'Oceni' }));
    fireEvent.click(within(card).getByLabelText('Negativna'));
    fireEvent.change(within(card).getByLabelText('Komentar'), { target: { value: 'Kasni' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Pošalji ocenu' }));
    expect(await within(card).findByText('Obrazložite negativnu ocenu (najmanje 10 znakova).')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(card).getByLabelText('Komentar'), { target: { value: '  Kasnio dva dana.  ' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Pošalji ocenu' }));
    await waitFor(() => expect(screen.getByTestId('sale-11').querySelector('.rating__comment')?.textContent).toBe('Kasnio dva dana.'));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ value: 'negative', comment: 'Kasnio dva dana.' });
    expect(post.headers['X-CSRFToken']).toBe('test-token');
    expect(within(screen.getByTestId('sale-11')).queryByRole('button', { name: 'Oceni' })).toBeNull();
  });

  it('answers a rating once and shows a closed window', async () => {
    const theirs = { id: 5, value: 'positive' as const, comment: 'Odličan kupac.', created_at: '2026-11-21T10:00:00.000Z', reply: null };
    let replied = false;
    const calls = stubFetch({
      ...loggedIn(),
      'GET /api/sales/': () => ({
        body: page([sale({ role: 'buyer', rate_until: '2026-01-01T00:00:00.000Z', their_rating: replied ? { ...theirs, reply: { content: 'Hvala!', created_at: '2026-11-22T10:00:00.000Z' } } : theirs })]),
      }),
      'POST /api/ratings/5/reply/': () => {
        replied = true;
        return { status: 201, body: { ...theirs, reply: { content: 'Hvala!', created_at: '2026-11-22T10:00:00.000Z' } } };
      },
    });
    renderApp('/moje-kupovine');
    const card = await screen.findByTestId('sale-11', {}, { timeout: 5000 });
    expect(card.textContent).toContain('Rok za ocenjivanje je istekao.');
    expect(within(card).queryByRole('button', { name: 'Oceni' })).toBeNull();
    expect(within(card).getByText('Prodavac')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Odgovori' }));
    fireEvent.change(within(card).getByLabelText('Vaš odgovor'), { target: { value: 'Hvala!' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Pošalji odgovor' }));
    await waitFor(() => expect(screen.getByTestId('sale-11').querySelector('.rating__reply-text')?.textContent).toBe('Hvala!'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ content: 'Hvala!' });
    expect(within(screen.getByTestId('sale-11')).queryByRole('button', { name: 'Odgovori' })).toBeNull();
  });

  it("says 'Još niste ništa prodali na aukciji.' without sales", async () => {
    stubFetch({ ...loggedIn(), 'GET /api/sales/': { body: page([]) } });
    renderApp('/moje-prodaje');
    expect(await screen.findByText('Još niste ništa prodali na aukciji.', {}, { timeout: 5000 })).toBeTruthy();
  });
});

describe('/clan/{id}', () => {
  const member: MemberProfile = {
    id: 3,
    first_name: 'Sanja Prodavac',
    city: 'Kraljevo',
    member_since: '2026-01-15T10:00:00.000Z',
    rating: { positive: 2, negative: 1, percent_positive: 67 },
    sold_count: 2,
    bought_count: 1,
    active_auctions_count: 0,
    blocked_by_viewer: false,
  };
  const rating: MemberRating = {
    id: 8,
    value: 'positive',
    comment: '<b>Sve</b> po dogovoru.',
    created_at: '2026-11-21T10:00:00.000Z',
    role: 'seller',
    from: { id: 9, first_name: 'Bojan' },
    auction: { id: null, title: 'Lampa' },
    reply: { content: 'Hvala!', created_at: '2026-11-22T10:00:00.000Z' },
  };

  it('shows name, city, member since, the score, ratings with answers (text only) and the open auctions', async () => {
    stubFetch({
      'GET /api/user/status/': { body: { is_authenticated: false, username: null } },
      'GET /api/members/3/': { body: member },
      'GET /api/members/3/ratings/': { body: page([rating]) },
      'GET /api/members/3/auctions/': { body: page([]) },
    });
    renderApp('/clan/3');
    await screen.findByRole('heading', { name: 'Sanja Prodavac', level: 1 }, { timeout: 5000 });
    expect(screen.getByText(/Član od 15\.01\.2026/)).toBeTruthy();
    expect(screen.getByTestId('member-score').textContent).toContain('+2 / −1');
    expect(screen.getByTestId('member-score').textContent).toContain('67% pozitivnih');
    expect(screen.getByText('Prodato: 2')).toBeTruthy();
    const comment = await screen.findByText('<b>Sve</b> po dogovoru.');
    expect(comment.querySelector('b')).toBeNull();
    expect(screen.getByText('Hvala!')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Bojan' }).getAttribute('href')).toBe('/clan/9');
    expect(screen.getByText(/Lampa \(obrisana aukcija\)/)).toBeTruthy();
    expect(await screen.findByText('Član trenutno nema aktivnih aukcija.')).toBeTruthy();
  });

  it("says 'Član ne postoji.' for a blocked or unknown member", async () => {
    stubFetch({ 'GET /api/user/status/': { body: { is_authenticated: false, username: null } }, 'GET /api/members/4/': { status: 404, body: { detail: 'Član ne postoji.', code: 'not_found' } } });
    renderApp('/clan/4');
    expect(await screen.findByText('Član ne postoji.', {}, { timeout: 5000 })).toBeTruthy();
  });
});
