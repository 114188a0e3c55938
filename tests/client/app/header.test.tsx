import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { Header } from '../../../client/src/app/layout/Header';
import { headerControls } from '../../../client/src/app/layout/header-rules';
import { loggedIn, loggedOut, stubFetch } from './test-utils';

afterEach(() => vi.unstubAllGlobals());

function renderHeader(path: string) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: <Header /> }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={qc}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const header = () => screen.getByRole('banner');
const link = (name: string) => within(header()).queryByRole('link', { name });
/** Waits until the session check settled (the anonymous header has rendered its final controls). */
const settled = () => new Promise((r) => setTimeout(r, 50));

describe('Header per route (logged out)', () => {
  it.each([
    // path, Postavi Aukciju, home, Uloguj se, Registruj se
    ['/', false, false, true, true],
    ['/pocetna', false, false, true, true],
    ['/aukcije', true, false, true, false],
    ['/aukcija', true, true, true, true],
    ['/aukcija/12', false, true, true, true],
    ['/nepostojeca', false, true, false, false],
  ])('%s', async (path, post, home, login, register) => {
    stubFetch(loggedOut);
    renderHeader(path);
    await settled();
    await waitFor(() => expect(!!link('Uloguj se')).toBe(login));
    expect(!!link('Postavi Aukciju')).toBe(post);
    expect(!!link('Početna')).toBe(home);
    expect(!!link('Registruj se')).toBe(register);
    expect(link('Aukcije, idi na listu aukcija')?.getAttribute('href')).toBe('/aukcije');
    expect(within(header()).queryByRole('button', { name: 'Korisnički meni' })).toBeNull();
  });

  it("/login: 'Nemaš nalog?' → Registruj se, no home icon", async () => {
    stubFetch(loggedOut);
    renderHeader('/login');
    await settled();
    expect(within(header()).getByText('Nemaš nalog?')).toBeTruthy();
    expect(link('Registruj se')?.getAttribute('href')).toBe('/registracija');
    expect(link('Početna')).toBeNull();
  });

  it("/registracija: 'Imaš nalog?' → Uloguj se, no home icon", async () => {
    stubFetch(loggedOut);
    renderHeader('/registracija');
    await settled();
    expect(within(header()).getByText('Imaš nalog?')).toBeTruthy();
    expect(link('Uloguj se')?.getAttribute('href')).toBe('/login');
    expect(link('Početna')).toBeNull();
  });
});

describe('Header (logged in)', () => {
  it('shows the bell with the unread count and no login buttons', async () => {
    stubFetch(loggedIn(undefined, 4));
    renderHeader('/aukcije');
    const bell = await within(header()).findByRole('link', { name: /Notifikacije, 4 nepročitanih/ });
    expect(bell.getAttribute('href')).toBe('/notifikacije');
    expect(within(bell).getByText('4')).toBeTruthy();
    expect(link('Uloguj se')).toBeNull();
    expect(link('Postavi Aukciju')).toBeTruthy();
  });

  it('hides the badge when there is nothing unread', async () => {
    stubFetch(loggedIn(undefined, 0));
    renderHeader('/profil');
    await within(header()).findByRole('link', { name: 'Notifikacije' });
    expect(screen.queryByTestId('unread-badge')).toBeNull();
  });

  it('refetches the unread count on every route change', async () => {
    const calls = stubFetch(loggedIn(undefined, 1));
    const router = renderHeader('/aukcije');
    await within(header()).findByRole('link', { name: /Notifikacije/ });
    const before = calls.filter((c) => c.path === '/api/notifications/unread-count/').length;
    await router.navigate('/profil');
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/notifications/unread-count/').length).toBeGreaterThan(before));
  });

  it('user menu: name and links, closes on outside click and Escape', async () => {
    stubFetch(loggedIn());
    renderHeader('/aukcije');
    const button = await within(header()).findByRole('button', { name: 'Korisnički meni' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(within(header()).getByText('Milica Marković')).toBeTruthy();
    expect(link('Profil')?.getAttribute('href')).toBe('/profil');
    expect(link('Moje aukcije')?.getAttribute('href')).toBe('/moje-aukcije');
    expect(link('Moje licitacije')?.getAttribute('title')).toBe('Predmeti na kojima sam licitirao');
    expect(link('Praćene aukcije')?.getAttribute('href')).toBe('/pracene');
    expect(link('Kupljeni predmeti')?.getAttribute('href')).toBe('/moje-kupovine');
    expect(link('Prodati predmeti')?.getAttribute('href')).toBe('/moje-prodaje');
    expect(link('Sačuvane pretrage')?.getAttribute('href')).toBe('/sacuvane-pretrage');
    expect(link('Podešavanja obaveštenja')?.getAttribute('href')).toBe('/podesavanja-obavestenja');
    expect(within(header()).getByRole('button', { name: 'Odjava' })).toBeTruthy();
    fireEvent.mouseDown(document.body);
    expect(link('Profil')).toBeNull();
    fireEvent.click(button);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(link('Profil')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('hides after scrolling down more than 5 px and shows after scrolling up more than 4 px', async () => {
    stubFetch(loggedOut);
    renderHeader('/aukcije');
    const el = header();
    const scrollTo = (y: number) => {
      Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
      fireEvent.scroll(window);
    };
    scrollTo(5);
    expect(el.className).not.toContain('site-header--hidden');
    scrollTo(11);
    expect(el.className).toContain('site-header--hidden');
    scrollTo(7);
    expect(el.className).toContain('site-header--hidden');
    scrollTo(6);
    expect(el.className).not.toContain('site-header--hidden');
    scrollTo(0);
  });
});

describe('headerControls', () => {
  it('logged-in users never get the login buttons', () => {
    for (const p of ['/', '/aukcije', '/aukcija/3']) {
      const c = headerControls(p, true);
      expect(c.login || c.register).toBe(false);
      expect(headerControls('/login', true).noAccount || headerControls('/registracija', true).haveAccount).toBe(false);
      expect(c.userControls).toBe(true);
    }
  });
});
