/**
 * Issue 24 in the client: 'Blokiraj člana' on /clan/{id} and /moje-prodaje (a confirmation, then POST), the
 * profile's block list with 'Odblokiraj', and the detail's bid box replaced by the sentence for a blocked member.
 * The network is a stub table (tests/client/app/test-utils).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MemberProfile, SaleItem } from '@shared/schemas/sales';
import { loggedIn, loggedOut, renderApp, stubFetch, USER } from '../app/test-utils';
import { auctionDetail } from '../live/fixtures';

afterEach(() => vi.unstubAllGlobals());

const LATER = new Date(Date.now() + 86_400_000).toISOString();
const SENTENCE = 'Prodavac vam je onemogućio učešće na svojim aukcijama.';
const page = <T,>(results: T[], over: object = {}) => ({ count: results.length, next: null, previous: null, results, ...over });
const member = (id: number): MemberProfile => ({
  id,
  first_name: 'Bojan Kupac',
  city: 'Niš',
  member_since: '2026-01-15T10:00:00.000Z',
  rating: { positive: 0, negative: 0, percent_positive: null },
  sold_count: 0,
  bought_count: 1,
  active_auctions_count: 0,
  blocked_by_viewer: false,
});
const memberRoutes = (id: number) => ({
  [`GET /api/members/${id}/`]: { body: member(id) },
  [`GET /api/members/${id}/ratings/`]: { body: page([]) },
  [`GET /api/members/${id}/auctions/`]: { body: page([]) },
});
const blocked = { id: 9, first_name: 'Bojan Kupac', blocked_at: '2026-11-26T10:00:00.000Z' };

describe("'Blokiraj člana'", () => {
  it('on /clan/{id}: asks first ("Ne" sends nothing), then POSTs the member with the CSRF header and says so', async () => {
    const user = userEvent.setup();
    const calls = stubFetch({ ...loggedIn(), ...memberRoutes(9), 'POST /api/blocked-members/': { status: 201, body: blocked } });
    renderApp('/clan/9');
    const button = await screen.findByRole('button', { name: 'Blokiraj člana' }, { timeout: 5000 });
    await user.click(button);
    let dialog = screen.getByRole('alertdialog', { name: 'Blokiraj člana' });
    expect(dialog.textContent).toContain('Bojan Kupac');
    await user.click(within(dialog).getByRole('button', { name: 'Ne' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Blokiraj člana' }));
    dialog = screen.getByRole('alertdialog', { name: 'Blokiraj člana' });
    await user.click(within(dialog).getByRole('button', { name: 'Da' }));
    expect(await screen.findByText('Član je blokiran.')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/api/blocked-members/');
    expect(post.body).toEqual({ user_id: 9 });
    expect(post.headers['X-CSRFToken']).toBe('test-token');
    expect(screen.getByRole('button', { name: 'Odblokiraj' })).toBeTruthy();
  });

  it('on /clan/{id} of a member already blocked (after a reload): says so and offers "Odblokiraj", which DELETEs', async () => {
    const user = userEvent.setup();
    const calls = stubFetch({
      ...loggedIn(),
      ...memberRoutes(9),
      'GET /api/members/9/': { body: { ...member(9), blocked_by_viewer: true } },
      'DELETE /api/blocked-members/9/': { status: 204 },
    });
    renderApp('/clan/9');
    const undo = await screen.findByRole('button', { name: 'Odblokiraj' }, { timeout: 5000 });
    expect(screen.getByText('Član je blokiran.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Blokiraj člana' })).toBeNull();
    await user.click(undo);
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/blocked-members/9/')).toBe(true));
  });

  it("is not offered on one's own profile nor to a visitor", async () => {
    stubFetch({ ...loggedIn(), ...memberRoutes(USER.id) });
    const own = renderApp(`/clan/${USER.id}`);
    await screen.findByRole('heading', { name: 'Bojan Kupac', level: 1 }, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: 'Blokiraj člana' })).toBeNull();
    own.unmount();
    vi.unstubAllGlobals();
    stubFetch({ ...loggedOut, ...memberRoutes(9) });
    renderApp('/clan/9');
    await screen.findByRole('heading', { name: 'Bojan Kupac', level: 1 }, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: 'Blokiraj člana' })).toBeNull();
  });

  it("on /moje-prodaje: offered for the buyer; the server's refusal is shown", async () => {
    const user = userEvent.setup();
    const sale: SaleItem = {
      auction_id: 11,
      title: 'Gramofon',
      first_image: null,
      price: 1600,
      ended_at: '2026-11-20T10:00:00.000Z',
      role: 'seller',
      counterpart: { id: 9, first_name: 'Bojan Kupac', city: 'Niš', phone_number: '0644445556', email: 'bojan@primer.rs', rating: { positive: 0, negative: 0 }, blocked_by_viewer: false },
      my_rating: null,
      their_rating: null,
      rate_until: new Date(Date.now() + 86_400_000).toISOString(),
    };
    stubFetch({
      ...loggedIn(),
      'GET /api/sales/': { body: page([sale]) },
      'POST /api/blocked-members/': { status: 400, body: { user_id: ['Možete blokirati najviše 500 članova.'], detail: 'Možete blokirati najviše 500 članova.', code: 'too_many_blocked' } },
    });
    renderApp('/moje-prodaje');
    const card = await screen.findByTestId('sale-11', {}, { timeout: 5000 });
    await user.click(within(card).getByRole('button', { name: 'Blokiraj člana' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Blokiraj člana' })).getByRole('button', { name: 'Da' }));
    expect((await within(card).findByRole('alert')).textContent).toBe('Možete blokirati najviše 500 članova.');
  });
});

describe('the block list on /profil', () => {
  it("lists the blocked members and unblocks one with 'Odblokiraj'", async () => {
    const user = userEvent.setup();
    let list = [blocked];
    const calls = stubFetch({
      ...loggedIn(),
      'GET /api/blocked-members/': () => ({ body: page(list) }),
      'DELETE /api/blocked-members/9/': () => {
        list = [];
        return { status: 204 };
      },
    });
    renderApp('/profil');
    const section = await screen.findByTestId('blocked-list', {}, { timeout: 5000 });
    const row = await within(section).findByTestId('blocked-9');
    expect(within(row).getByRole('link', { name: 'Bojan Kupac' }).getAttribute('href')).toBe('/clan/9');
    await user.click(within(row).getByRole('button', { name: 'Odblokiraj' }));
    expect(await within(section).findByText('Niste blokirali nijednog člana.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/blocked-members/9/')).toBe(true);
  });
});

describe('the detail for a member the seller blocked', () => {
  it('shows the sentence instead of the bid box (no amount input, no "Kupi odmah"); others get the bid box', async () => {
    stubFetch({ ...loggedIn(), 'GET /api/auction/1/': { body: auctionDetail({ viewer_blocked: true, buy_now_price: 9000, end_date: LATER }) } });
    const view = renderApp('/aukcija/1');
    expect((await screen.findByTestId('blocked-by-seller', {}, { timeout: 5000 })).textContent).toBe(SENTENCE);
    expect(screen.queryByRole('button', { name: /Kupi odmah/ })).toBeNull();
    expect(screen.queryByRole('spinbutton')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Licitiraj' })).toBeNull();
    view.unmount();
    vi.unstubAllGlobals();
    stubFetch({ ...loggedIn(), 'GET /api/auction/1/': { body: auctionDetail({ viewer_blocked: false, end_date: LATER }) } });
    renderApp('/aukcija/1');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Licitiraj' })).toBeTruthy(), { timeout: 5000 });
    expect(screen.queryByTestId('blocked-by-seller')).toBeNull();
  });
});
