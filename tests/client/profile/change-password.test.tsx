import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { loggedIn, renderApp, stubFetch } from '../app/test-utils';

afterEach(() => vi.unstubAllGlobals());

async function open() {
  renderApp('/promena-lozinke');
  await screen.findByRole('heading', { name: 'Promena lozinke' }, { timeout: 5000 });
}
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const errorOf = (label: string) => {
  const ids = field(label).getAttribute('aria-describedby');
  return ids ? ids.split(' ').map((id) => document.getElementById(id)?.textContent).join(' ') : null;
};
const fill = (old: string, next: string, confirm: string) => {
  fireEvent.change(field('Stara lozinka'), { target: { value: old } });
  fireEvent.change(field('Nova lozinka'), { target: { value: next } });
  fireEvent.change(field('Potvrda nove lozinke'), { target: { value: confirm } });
};
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Promeni lozinku' }));

describe('ChangePasswordPage', () => {
  it('requires all three fields', async () => {
    const calls = stubFetch(loggedIn());
    await open();
    submit();
    await waitFor(() => expect(errorOf('Stara lozinka')).toBe('Stara lozinka je obavezna.'));
    expect(errorOf('Nova lozinka')).toBe('Lozinka je obavezna.');
    expect(errorOf('Potvrda nove lozinke')).toBe('Potvrda lozinke je obavezna.');
    expect(calls.some((c) => c.path === '/api/change-password/')).toBe(false);
  });

  it('applies the password rule, the confirmation match and "different from the old one"', async () => {
    stubFetch(loggedIn());
    await open();
    fill('Stara1234', 'slaba', 'slaba');
    submit();
    await waitFor(() => expect(errorOf('Nova lozinka')).toBe('Lozinka mora imati minimum 8 znakova i barem jedan broj.'));
    fill('Stara1234', 'NovaLozinka1', 'NovaLozinka2');
    submit();
    await waitFor(() => expect(errorOf('Potvrda nove lozinke')).toBe('Lozinke se ne poklapaju.'));
    fill('Stara1234', 'Stara1234', 'Stara1234');
    submit();
    await waitFor(() => expect(errorOf('Nova lozinka')).toBe('Nova lozinka mora biti različita od stare.'));
  });

  it("shows the server's wrong-old-password message under the old field", async () => {
    stubFetch({
      ...loggedIn(),
      'POST /api/change-password/': { status: 400, body: { detail: 'x', old_password: ['Trenutna lozinka nije tačna.'] } },
    });
    await open();
    fill('Pogresna123', 'NovaLozinka1', 'NovaLozinka1');
    submit();
    await waitFor(() => expect(errorOf('Stara lozinka')).toBe('Trenutna lozinka nije tačna.'));
  });

  it('posts old and new password and confirms success, clearing the form', async () => {
    const calls = stubFetch({ ...loggedIn(), 'POST /api/change-password/': { body: { detail: 'Lozinka je uspešno promenjena.' } } });
    await open();
    fill('Stara1234', 'NovaLozinka1', 'NovaLozinka1');
    submit();
    expect(await screen.findByText('Lozinka je uspešno promenjena.')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/change-password/')?.body).toEqual({ old_password: 'Stara1234', new_password: 'NovaLozinka1' });
    expect(field('Stara lozinka').value).toBe('');
  });
});
