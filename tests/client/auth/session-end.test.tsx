/**
 * A session that ends under an open page (issue 11, point 2), at the API wrapper: an answer 403
 * `not_authenticated` forgets the user (clearAuth) BEFORE going to /login, so the login route's guest guard
 * does not bounce the user back to /aukcije, and the login page says why; after logging in again the user
 * returns to the page they were on. 403 `forbidden`, a CSRF refusal (retried with a fresh token) and 400/401
 * answers log no one out. The real app (route table, guards, query client) with fetch stubbed at the network.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { apiFetch, ApiError, apiUpload } from '../../../client/src/lib/api';
import { statusKey } from '../../../client/src/features/auth/api/status';
import { loggedIn, renderApp, stubFetch, USER, type StubHandler } from '../app/test-utils';

afterEach(() => vi.unstubAllGlobals());

const ENDED = 'Vaša sesija je istekla. Prijavite se ponovo.';
const notAuthenticated = { status: 403, body: { detail: 'Morate biti prijavljeni.', code: 'not_authenticated' } };

/** Logged in until `end()`; afterwards the server answers as for a visitor (cookies gone). */
function session(extra: Record<string, StubHandler> = {}) {
  let authenticated = true;
  const calls = stubFetch({
    ...loggedIn(),
    'GET /api/user/status/': () => ({ body: { is_authenticated: authenticated, username: authenticated ? USER.first_name : null } }),
    'GET /api/current_user_data/': () => (authenticated ? { body: USER } : notAuthenticated),
    ...extra,
  });
  return { calls, end: () => (authenticated = false), login: () => (authenticated = true) };
}

async function openLoggedIn(path: string) {
  const app = renderApp(path);
  await waitFor(() => expect(screen.getByRole('button', { name: 'Korisnički meni' })).toBeTruthy(), { timeout: 5000 });
  return app;
}

/** Calls the API as a component would, and returns the error it threw. */
async function failing(path: string, opts: Parameters<typeof apiFetch>[1] = { method: 'POST', body: {} }): Promise<ApiError> {
  let caught: unknown;
  await act(async () => {
    await apiFetch(path, opts).catch((e: unknown) => (caught = e));
  });
  expect(caught).toBeInstanceOf(ApiError);
  return caught as ApiError;
}

const loggedInStatus = (qc: ReturnType<typeof renderApp>['qc']) => qc.getQueryData<{ is_authenticated: boolean }>(statusKey)?.is_authenticated;

describe('403 not_authenticated under an open page', () => {
  it('forgets the user before /login, stays on /login with the message, and returns to the page after logging in', async () => {
    const s = session({
      'POST /api/bids/': () => {
        s.end();
        return notAuthenticated;
      },
      'POST /api/login/': () => {
        s.login();
        return { body: { detail: 'Uspešno ste se prijavili.' } };
      },
    });
    const app = await openLoggedIn('/aukcije?page=2');
    expect(loggedInStatus(app.qc)).toBe(true);

    const err = await failing('/api/bids/', { method: 'POST', body: { auction_item_id: 5, amount: 2000 } });
    expect(err.body.code).toBe('not_authenticated');
    // Forgotten by the time the caller sees the error (not after a status refetch that may come later).
    expect(loggedInStatus(app.qc)).toBe(false);
    await waitFor(() => expect(app.pathname()).toBe('/login'));
    expect(await screen.findByText(ENDED, undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Prijavite se' })).toBeTruthy();
    // Not bounced to /aukcije by the guest guard.
    await new Promise((r) => setTimeout(r, 300));
    expect(app.pathname()).toBe('/login');
    expect(screen.queryByRole('button', { name: 'Korisnički meni' })).toBeNull();

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: USER.email } });
    fireEvent.change(screen.getByLabelText('Lozinka'), { target: { value: 'Lozinka123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Uloguj se' }));
    expect(await screen.findByText('Uspesno ste se ulogovali!')).toBeTruthy();
    await waitFor(() => expect(app.router.state.location.pathname + app.router.state.location.search).toBe('/aukcije?page=2'), { timeout: 4000 });
    expect(s.calls.some((c) => c.method === 'POST' && c.path === '/api/login/')).toBe(true);
  });

  it('an upload answered not_authenticated (create an auction) does the same', async () => {
    session();
    const app = await openLoggedIn('/aukcije');
    const xhrs: { status: number; responseText: string; onload?: () => void }[] = [];
    class FakeXhr {
      status = 0;
      responseText = '';
      upload = {};
      withCredentials = false;
      onload?: () => void;
      open() {}
      setRequestHeader() {}
      send() {
        this.status = 403;
        this.responseText = JSON.stringify(notAuthenticated.body);
        xhrs.push(this);
        setTimeout(() => this.onload?.(), 0);
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    await act(async () => {
      await apiUpload('/api/auction-items/1/images/', new FormData()).catch(() => undefined);
    });
    expect(xhrs).toHaveLength(1);
    expect(loggedInStatus(app.qc)).toBe(false);
    await waitFor(() => expect(app.pathname()).toBe('/login'));
    expect(await screen.findByText(ENDED, undefined, { timeout: 5000 })).toBeTruthy();
  });
});

describe('answers that log no one out', () => {
  it('403 forbidden: still logged in, still on the page, no message', async () => {
    session({ 'POST /api/bids/': { status: 403, body: { detail: 'Nemate dozvolu.', code: 'forbidden' } } });
    const app = await openLoggedIn('/aukcije');
    const err = await failing('/api/bids/');
    expect(err.body.code).toBe('forbidden');
    await new Promise((r) => setTimeout(r, 300));
    expect(loggedInStatus(app.qc)).toBe(true);
    expect(app.pathname()).toBe('/aukcije');
    expect(screen.getByRole('button', { name: 'Korisnički meni' })).toBeTruthy();
    expect(screen.queryByText(ENDED)).toBeNull();
  });

  it('403 csrf: the token is fetched again and the request retried; still logged in', async () => {
    let posts = 0;
    const s = session({
      'POST /api/comments/create/': () => (++posts === 1 ? { status: 403, body: { detail: 'CSRF', code: 'csrf' } } : { status: 201, body: { id: 1 } }),
      'GET /api/csrf/': { body: { csrftoken: 'fresh-token' } },
    });
    const app = await openLoggedIn('/aukcije');
    await act(async () => {
      expect(await apiFetch('/api/comments/create/', { method: 'POST', body: { content: 'x' } })).toEqual({ id: 1 });
    });
    expect(posts).toBe(2);
    expect(s.calls.some((c) => c.path === '/api/csrf/')).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(loggedInStatus(app.qc)).toBe(true);
    expect(app.pathname()).toBe('/aukcije');
  });

  it('a CSRF refusal that persists is not a session end either', async () => {
    session({ 'POST /api/bids/': { status: 403, body: { detail: 'CSRF', code: 'csrf' } } });
    const app = await openLoggedIn('/aukcije');
    expect((await failing('/api/bids/')).body.code).toBe('csrf');
    await new Promise((r) => setTimeout(r, 300));
    expect(loggedInStatus(app.qc)).toBe(true);
    expect(app.pathname()).toBe('/aukcije');
  });

  it('400 and 401 (a wrong password, e.g. changing it) log no one out', async () => {
    session({
      'POST /api/change-password/': { status: 400, body: { old_password: ['Trenutna lozinka nije tačna.'] } },
      'POST /api/login/': { status: 401, body: { detail: 'Email ili lozinka nisu tačni!', code: 'invalid_credentials' } },
    });
    const app = await openLoggedIn('/aukcije');
    expect((await failing('/api/change-password/')).status).toBe(400);
    expect((await failing('/api/login/')).status).toBe(401);
    await new Promise((r) => setTimeout(r, 300));
    expect(loggedInStatus(app.qc)).toBe(true);
    expect(app.pathname()).toBe('/aukcije');
  });

  it('a visitor answered not_authenticated is not told that a session expired', async () => {
    stubFetch({ 'GET /api/user/status/': { body: { is_authenticated: false, username: null } }, 'POST /api/bids/': notAuthenticated });
    const app = renderApp('/aukcije');
    await waitFor(() => expect(loggedInStatus(app.qc)).toBe(false));
    await failing('/api/bids/');
    await new Promise((r) => setTimeout(r, 300));
    expect(app.pathname()).toBe('/aukcije');
    expect(screen.queryByText(ENDED)).toBeNull();
  });
});
