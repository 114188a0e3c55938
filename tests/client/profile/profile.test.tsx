import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { loggedIn, renderApp, stubFetch, USER } from '../app/test-utils';

afterEach(() => vi.unstubAllGlobals());

async function openProfile() {
  const app = renderApp('/profil');
  await screen.findByRole('heading', { name: 'Korisnička stranica' }, { timeout: 5000 });
  return app;
}
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Ažurirajte podatke' }));

describe('ProfilePage', () => {
  it('shows the e-mail read-only and the editable fields filled in', async () => {
    stubFetch(loggedIn());
    await openProfile();
    expect(field('Email').value).toBe(USER.email);
    expect(field('Email').readOnly).toBe(true);
    expect(field('Ime i prezime').value).toBe(USER.first_name);
    expect(field('Broj telefona').value).toBe(USER.phone_number);
    expect(field('Grad').value).toBe(USER.city);
  });

  it('requires the name and does not save without it', async () => {
    const calls = stubFetch(loggedIn());
    await openProfile();
    fireEvent.change(field('Ime i prezime'), { target: { value: '  ' } });
    submit();
    expect(await screen.findByText('Ime je obavezno.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.change(field('Ime i prezime'), { target: { value: 'M' } });
    expect(screen.queryByText('Ime je obavezno.')).toBeNull();
  });

  it('warns about an empty phone but still saves; success only, then /aukcije after 1.3 s', async () => {
    const calls = stubFetch({
      ...loggedIn(),
      'PUT /api/update-profile/': ({ body }) => ({ body: { ...USER, ...(body as object), detail: 'ok' } }),
    });
    const app = await openProfile();
    fireEvent.change(field('Broj telefona'), { target: { value: '' } });
    fireEvent.change(field('Grad'), { target: { value: 'Subotica' } });
    submit();
    expect(await screen.findByText('Molimo vas da unesete broj telefona.')).toBeTruthy();
    expect(await screen.findByText('Podaci su uspešno ažurirani.')).toBeTruthy();
    expect(screen.queryByText('Greška pri ažuriranju podataka.')).toBeNull();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      first_name: USER.first_name,
      phone_number: '',
      city: 'Subotica',
      email: USER.email,
    });
    expect(app.pathname()).toBe('/profil');
    await waitFor(() => expect(app.pathname()).toBe('/aukcije'), { timeout: 3000 });
  });

  it('shows only the error message when saving fails', async () => {
    stubFetch({ ...loggedIn(), 'PUT /api/update-profile/': { status: 500, body: { detail: 'x' } } });
    const app = await openProfile();
    submit();
    expect(await screen.findByText('Greška pri ažuriranju podataka.')).toBeTruthy();
    expect(screen.queryByText('Podaci su uspešno ažurirani.')).toBeNull();
    await new Promise((r) => setTimeout(r, 1500));
    expect(app.pathname()).toBe('/profil');
  });

  it('sends a logged-out visitor to /login without rendering the form', async () => {
    stubFetch({ 'GET /api/user/status/': { body: { is_authenticated: false, username: null } } });
    const app = renderApp('/profil');
    expect(screen.getByText('Učitavanje...')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Korisnička stranica' })).toBeNull();
    await waitFor(() => expect(app.pathname()).toBe('/login'));
  });
});
