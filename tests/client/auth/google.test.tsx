import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { renderApp, stubFetch, USER } from '../app/test-utils';

type Callback = (r: { credential?: string }) => void;

/** Google Identity Services stand-in: records the client id and lets the test play the widget. */
function fakeGoogle() {
  const state: { clientId?: string; callback?: Callback; rendered: number } = { rendered: 0 };
  window.google = {
    accounts: {
      id: {
        initialize: (opts) => {
          state.clientId = opts.client_id;
          state.callback = opts.callback;
        },
        renderButton: () => {
          state.rendered += 1;
        },
      },
    },
  };
  return state;
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.google;
});

const enabled = { 'GET /api/auth/google/config/': { body: { enabled: true, redirect_enabled: false, client_id: 'test-client.apps.googleusercontent.com' } } };

function session() {
  let authenticated = false;
  return {
    login: () => {
      authenticated = true;
    },
    routes: {
      'GET /api/user/status/': () => ({ body: { is_authenticated: authenticated, username: authenticated ? USER.first_name : null } }),
      'GET /api/current_user_data/': { body: USER },
      'GET /api/notifications/unread-count/': { body: { unread_notifications_count: 0 } },
    },
  };
}

describe('Google sign-in button', () => {
  it('renders the Google widget with the server client id; a new user lands on /profil', async () => {
    const g = fakeGoogle();
    const s = session();
    const calls = stubFetch({
      ...s.routes,
      ...enabled,
      'POST /api/auth/google/': () => {
        s.login();
        return { body: { detail: 'ok', is_new_user: true } };
      },
    });
    const app = renderApp('/login');
    await waitFor(() => expect(g.rendered).toBe(1), { timeout: 5000 });
    expect(g.clientId).toBe('test-client.apps.googleusercontent.com');
    act(() => g.callback!({ credential: 'id-token-123' }));
    expect(await screen.findByText('Uspesno ste se ulogovali!')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/auth/google/')?.body).toEqual({ id_token: 'id-token-123' });
    await waitFor(() => expect(app.pathname()).toBe('/profil'), { timeout: 4000 });
  });

  it("shows 'Vaš nalog je blokiran.' on 403 and the Google failure text otherwise", async () => {
    const g = fakeGoogle();
    const s = session();
    let answer = { status: 403, body: { detail: 'Vaš nalog je blokiran.', code: 'blocked' } };
    stubFetch({ ...s.routes, ...enabled, 'POST /api/auth/google/': () => answer });
    renderApp('/login');
    await waitFor(() => expect(g.rendered).toBe(1), { timeout: 5000 });
    act(() => g.callback!({ credential: 'x' }));
    expect(await screen.findByText('Vaš nalog je blokiran.')).toBeTruthy();
    answer = { status: 401, body: { detail: 'x', code: 'google_failed' } };
    act(() => g.callback!({ credential: 'y' }));
    expect(await screen.findByText('Google login failed. Please try again.')).toBeTruthy();
    act(() => g.callback!({}));
    expect(await screen.findByText('Google login failed. Please try again.')).toBeTruthy();
  });
});
