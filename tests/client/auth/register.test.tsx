import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loggedOut, renderApp, stubFetch } from '../app/test-utils';

afterEach(() => vi.unstubAllGlobals());

async function openRegister() {
  const app = renderApp('/registracija');
  await screen.findByRole('heading', { name: 'Registrujte se' }, { timeout: 5000 });
  return app;
}

const field = (label: string) => screen.getByLabelText(label, { exact: true }) as HTMLInputElement;
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Registruj se' }));
/** The error text linked to a field through aria-describedby. */
const errorOf = (label: string) => {
  const ids = field(label).getAttribute('aria-describedby');
  return ids ? ids.split(' ').map((id) => document.getElementById(id)?.textContent).join(' ') : null;
};

async function fillValid(overrides: Partial<Record<string, string>> = {}) {
  const v = {
    'Ime i prezime': 'Nikola Nikolić',
    Email: 'nikola@primer.rs',
    'Broj telefona': '+381641234567',
    Lozinka: 'Lozinka123',
    'Potvrda lozinke': 'Lozinka123',
    ...overrides,
  };
  for (const [label, value] of Object.entries(v)) {
    fireEvent.change(field(label), { target: { value } });
  }
}

describe('RegisterPage validation (spec §5)', () => {
  it('shows every "required" message and does not call the server', async () => {
    const calls = stubFetch(loggedOut);
    await openRegister();
    submit();
    expect(await screen.findByText('Ime je obavezno.')).toBeTruthy();
    expect(errorOf('Email')).toBe('Email je obavezan.');
    expect(errorOf('Broj telefona')).toBe('Broj telefona je obavezan');
    expect(errorOf('Lozinka')).toBe('Lozinka je obavezna.');
    expect(errorOf('Potvrda lozinke')).toBe('Potvrda lozinke je obavezna.');
    expect(calls.some((c) => c.path === '/api/user/register/')).toBe(false);
  });

  it.each([
    ['Email', 'nije-email', 'Email nije validan.'],
    ['Email', 'a@b', 'Email nije validan.'],
    ['Broj telefona', 'abc123', 'Broj telefona nije validan.'],
    ['Broj telefona', '+3816412345678901', 'Broj telefona nije validan.'],
    ['Lozinka', 'kratka1', 'Lozinka mora imati minimum 8 znakova i barem jedan broj.'],
    ['Lozinka', 'bezbrojeva', 'Lozinka mora imati minimum 8 znakova i barem jedan broj.'],
  ])('%s "%s" → %s', async (label, value, message) => {
    stubFetch(loggedOut);
    await openRegister();
    await fillValid({ [label]: value, ...(label === 'Lozinka' ? { 'Potvrda lozinke': value } : {}) });
    submit();
    await waitFor(() => expect(errorOf(label)).toBe(message));
  });

  it('requires the confirmation to match', async () => {
    stubFetch(loggedOut);
    await openRegister();
    await fillValid({ 'Potvrda lozinke': 'Lozinka124' });
    submit();
    await waitFor(() => expect(errorOf('Potvrda lozinke')).toBe('Lozinke se ne poklapaju.'));
  });

  it("clears only the edited field's error", async () => {
    stubFetch(loggedOut);
    await openRegister();
    submit();
    await screen.findByText('Ime je obavezno.');
    await userEvent.type(field('Ime i prezime'), 'N');
    expect(screen.queryByText('Ime je obavezno.')).toBeNull();
    expect(errorOf('Email')).toBe('Email je obavezan.');
    await userEvent.type(field('Email'), 'x');
    expect(screen.queryByText('Email je obavezan.')).toBeNull();
    expect(errorOf('Lozinka')).toBe('Lozinka je obavezna.');
  });

  it("shows the server's e-mail error under the e-mail field", async () => {
    stubFetch({
      ...loggedOut,
      'POST /api/user/register/': { status: 400, body: { detail: 'Podaci nisu ispravni.', email: ['Korisnik sa ovom email adresom već postoji.'] } },
    });
    await openRegister();
    await fillValid();
    submit();
    await waitFor(() => expect(errorOf('Email')).toBe('Korisnik sa ovom email adresom već postoji.'));
    expect(screen.queryByText('Došlo je do greške prilikom registracije. Pokušajte ponovo.')).toBeNull();
  });

  it('shows the general message on any other failure', async () => {
    stubFetch({ ...loggedOut, 'POST /api/user/register/': { status: 500, body: { detail: 'x' } } });
    await openRegister();
    await fillValid();
    submit();
    expect(await screen.findByText('Došlo je do greške prilikom registracije. Pokušajte ponovo.')).toBeTruthy();
  });

  it('on 201 opens "Uspešna registracija!" naming the address; closing goes to /login', async () => {
    const calls = stubFetch({ ...loggedOut, 'GET /api/auth/google/config/': { body: { enabled: false, client_id: null } }, 'POST /api/user/register/': { status: 201, body: { detail: 'ok' } } });
    const app = await openRegister();
    await fillValid();
    submit();
    const dialog = await screen.findByRole('dialog', { name: 'Uspešna registracija!' });
    expect(within(dialog).getByText(/nikola@primer\.rs/)).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/user/register/')?.body).toEqual({
      first_name: 'Nikola Nikolić',
      email: 'nikola@primer.rs',
      phone_number: '+381641234567',
      password: 'Lozinka123',
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'U redu' }));
    await waitFor(() => expect(app.pathname()).toBe('/login'));
  });
});
