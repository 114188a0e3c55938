import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { loggedOut, renderApp, stubFetch } from '../app/test-utils';

afterEach(() => vi.unstubAllGlobals());

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const errorOf = (label: string) => {
  const ids = field(label).getAttribute('aria-describedby');
  return ids ? ids.split(' ').map((id) => document.getElementById(id)?.textContent).join(' ') : null;
};

describe('ForgotPasswordPage', () => {
  it('validates the e-mail, then confirms without saying whether the account exists', async () => {
    const calls = stubFetch({ ...loggedOut, 'POST /api/password-reset/': { body: { detail: 'ok' } } });
    renderApp('/zaboravljena-lozinka');
    await screen.findByRole('heading', { name: 'Zaboravljena lozinka' }, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Pošalji link' }));
    await waitFor(() => expect(errorOf('Email')).toBe('Email je obavezan.'));
    fireEvent.change(field('Email'), { target: { value: 'nije-email' } });
    expect(errorOf('Email')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Pošalji link' }));
    await waitFor(() => expect(errorOf('Email')).toBe('Email nije validan.'));
    fireEvent.change(field('Email'), { target: { value: 'ana@primer.rs' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pošalji link' }));
    expect(await screen.findByText(/Ako nalog sa ovom adresom postoji/)).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/password-reset/')?.body).toEqual({ email: 'ana@primer.rs' });
  });
});

describe('ResetPasswordPage', () => {
  it('checks the new password and posts it with the token from the link', async () => {
    const calls = stubFetch({ ...loggedOut, 'POST /api/password-reset/confirm/': { body: { detail: 'ok' } } });
    renderApp('/zaboravljena-lozinka/tok_en-123');
    await screen.findByRole('heading', { name: 'Nova lozinka' }, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Sačuvaj novu lozinku' }));
    await waitFor(() => expect(errorOf('Nova lozinka')).toBe('Lozinka je obavezna.'));
    expect(errorOf('Potvrda nove lozinke')).toBe('Potvrda lozinke je obavezna.');
    fireEvent.change(field('Nova lozinka'), { target: { value: 'NovaLozinka1' } });
    fireEvent.change(field('Potvrda nove lozinke'), { target: { value: 'NovaLozinka2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sačuvaj novu lozinku' }));
    await waitFor(() => expect(errorOf('Potvrda nove lozinke')).toBe('Lozinke se ne poklapaju.'));
    fireEvent.change(field('Potvrda nove lozinke'), { target: { value: 'NovaLozinka1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sačuvaj novu lozinku' }));
    expect(await screen.findByText('Lozinka je promenjena. Sada se možete ulogovati.')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/password-reset/confirm/')?.body).toEqual({ token: 'tok_en-123', password: 'NovaLozinka1' });
  });

  it('explains an invalid or expired link', async () => {
    stubFetch({ ...loggedOut, 'POST /api/password-reset/confirm/': { status: 400, body: { detail: 'x', code: 'reset_invalid' } } });
    renderApp('/zaboravljena-lozinka/stari-token-123456789');
    await screen.findByRole('heading', { name: 'Nova lozinka' }, { timeout: 5000 });
    fireEvent.change(field('Nova lozinka'), { target: { value: 'NovaLozinka1' } });
    fireEvent.change(field('Potvrda nove lozinke'), { target: { value: 'NovaLozinka1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sačuvaj novu lozinku' }));
    expect(await screen.findByText('Link za promenu lozinke nije ispravan ili je istekao.')).toBeTruthy();
  });
});
