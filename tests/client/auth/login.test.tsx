import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loggedOut, renderApp, stubFetch, USER } from '../app/test-utils';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const googleOff = { 'GET /api/auth/google/config/': { body: { enabled: false, redirect_enabled: false, client_id: null } } };

async function openLogin(path = '/login') {
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Prijavite se' }, { timeout: 5000 });
  return app;
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Uloguj se' }));

describe('LoginPage', () => {
  it('requires both fields and does not call the server', async () => {
    const calls = stubFetch({ ...loggedOut, ...googleOff });
    await openLogin();
    submit();
    expect(await screen.findByText('Molim vas da unesete vaš email i lozinku!')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.rs');
    submit();
    expect(await screen.findByText('Molim vas da unesete vaš email i lozinku!')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/login/')).toBe(false);
  });

  it('shows "Email ili lozinka nisu tačni!" on 401', async () => {
    stubFetch({ ...loggedOut, ...googleOff, 'POST /api/login/': { status: 401, body: { detail: 'x', code: 'invalid_credentials' } } });
    await openLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.rs');
    await userEvent.type(screen.getByLabelText('Lozinka'), 'Lozinka123');
    submit();
    expect(await screen.findByText('Email ili lozinka nisu tačni!')).toBeTruthy();
  });

  it("shows the server's message on 403 (not verified)", async () => {
    stubFetch({
      ...loggedOut,
      ...googleOff,
      'POST /api/login/': { status: 403, body: { detail: 'Vaš nalog nije verifikovan. Proverite vaš email.', code: 'not_verified' } },
    });
    await openLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.rs');
    await userEvent.type(screen.getByLabelText('Lozinka'), 'Lozinka123');
    submit();
    expect(await screen.findByText('Vaš nalog nije verifikovan. Proverite vaš email.')).toBeTruthy();
  });

  it('on success says "Uspesno ste se ulogovali!" and goes to /aukcije after 1.8 s, sending the CSRF header', async () => {
    let authenticated = false;
    const calls = stubFetch({
      ...googleOff,
      'GET /api/user/status/': () => ({ body: { is_authenticated: authenticated, username: authenticated ? USER.first_name : null } }),
      'GET /api/current_user_data/': { body: USER },
      'GET /api/notifications/unread-count/': { body: { unread_notifications_count: 0 } },
      'POST /api/login/': () => {
        authenticated = true;
        return { body: { detail: 'ok' } };
      },
    });
    const app = await openLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'milica@primer.rs');
    await userEvent.type(screen.getByLabelText('Lozinka'), 'Lozinka123');
    const t0 = Date.now();
    submit();
    expect(await screen.findByText('Uspesno ste se ulogovali!')).toBeTruthy();
    const post = calls.find((c) => c.path === '/api/login/')!;
    expect(post.body).toEqual({ email: 'milica@primer.rs', password: 'Lozinka123' });
    expect(post.headers['X-CSRFToken']).toBe('test-token');
    expect(app.pathname()).toBe('/login');
    await waitFor(() => expect(app.pathname()).toBe('/aukcije'), { timeout: 4000 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1750);
  });

  it('follows redirect_url for an admin', async () => {
    let authenticated = false;
    stubFetch({
      ...googleOff,
      'GET /api/user/status/': () => ({ body: { is_authenticated: authenticated, username: 'Admin' } }),
      'GET /api/current_user_data/': { body: { ...USER, is_superuser: true } },
      'GET /api/notifications/unread-count/': { body: { unread_notifications_count: 0 } },
      'GET /api/admin/users/': { body: [] },
      'POST /api/login/': () => {
        authenticated = true;
        return { body: { detail: 'ok', redirect_url: '/admin/dashboard' } };
      },
    });
    const app = await openLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'admin@primer.rs');
    await userEvent.type(screen.getByLabelText('Lozinka'), 'Lozinka123');
    submit();
    await waitFor(() => expect(app.pathname()).toBe('/admin/dashboard'), { timeout: 4000 });
  });

  it('shows the verification result from the query flag', async () => {
    stubFetch({ ...loggedOut, ...googleOff });
    await openLogin('/login?verified=1');
    expect(screen.getByText('Vaš nalog je verifikovan. Sada se možete ulogovati.')).toBeTruthy();
  });

  it('offers a new verification link after a broken one', async () => {
    const calls = stubFetch({ ...loggedOut, ...googleOff, 'POST /api/verify/resend/': { body: { detail: 'Poslato.' } } });
    await openLogin('/login?verified=0');
    expect(screen.getByText('Link za verifikaciju nije ispravan ili je istekao.')).toBeTruthy();
    const field = screen.getAllByLabelText('Email')[0];
    await userEvent.type(field, 'neko@primer.rs');
    fireEvent.click(screen.getByRole('button', { name: 'Pošalji novi link' }));
    expect(await screen.findByText('Poslato.')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/verify/resend/')?.body).toEqual({ email: 'neko@primer.rs' });
  });

  it('has a disabled Google button with an explanation when Google is not configured, and a forgotten-password link', async () => {
    stubFetch({ ...loggedOut, ...googleOff });
    await openLogin();
    const google = await screen.findByRole('button', { name: 'Prijava preko Google naloga' });
    expect((google as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Google prijava trenutno nije podešena na ovom serveru.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Zaboravili ste lozinku?' }).getAttribute('href')).toBe('/zaboravljena-lozinka');
    expect(document.querySelector('script[src*="accounts.google.com"]')).toBeNull();
  });

  it('sends a logged-in user from /login to /aukcije', async () => {
    stubFetch({
      ...googleOff,
      'GET /api/user/status/': { body: { is_authenticated: true, username: USER.first_name } },
      'GET /api/current_user_data/': { body: USER },
      'GET /api/notifications/unread-count/': { body: { unread_notifications_count: 0 } },
    });
    const app = renderApp('/login');
    await waitFor(() => expect(app.pathname()).toBe('/aukcije'));
  });
});
