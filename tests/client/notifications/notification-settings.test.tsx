import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { loggedIn, renderApp, stubFetch } from '../app/test-utils';

afterEach(() => vi.unstubAllGlobals());

const ALL_ON = {
  outbid: true,
  won: true,
  auction_ended: true,
  reserve_not_met: true,
  ending_soon: true,
  rating_received: true,
  report_resolved: true,
  saved_search: true,
};
const box = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('NotificationSettingsPage (/podesavanja-obavestenja)', () => {
  it('shows one checkbox per e-mail kind from the server, saves the whole set and says so', async () => {
    const calls = stubFetch({
      ...loggedIn(),
      'GET /api/notification-settings/': { body: { email: { ...ALL_ON, won: false } } },
      'PUT /api/notification-settings/': ({ body }) => ({ body }),
    });
    renderApp('/podesavanja-obavestenja');
    await screen.findByRole('heading', { name: 'Podešavanja obaveštenja' }, { timeout: 5000 });
    await waitFor(() => expect(box('Vaša ponuda je nadmašena').checked).toBe(true));
    expect(box('Pobedili ste na aukciji').checked).toBe(false);
    expect(screen.getAllByRole('checkbox')).toHaveLength(8);
    expect(screen.getByText('Izaberite o čemu želite da vas obaveštavamo e-poštom. Obaveštenja na sajtu su uvek uključena.')).toBeTruthy();
    fireEvent.click(box('Vaša ponuda je nadmašena'));
    fireEvent.click(screen.getByRole('button', { name: 'Sačuvaj' }));
    await screen.findByText('Podešavanja su sačuvana.');
    const put = calls.find((c) => c.method === 'PUT' && c.path === '/api/notification-settings/');
    expect(put?.body).toEqual({ email: { ...ALL_ON, won: false, outbid: false } });
    expect(put?.headers['X-CSRFToken'] ?? put?.headers['x-csrftoken']).toBe('test-token');
    expect(box('Vaša ponuda je nadmašena').checked).toBe(false);
  });

  it('says when saving failed', async () => {
    stubFetch({
      ...loggedIn(),
      'GET /api/notification-settings/': { body: { email: ALL_ON } },
      'PUT /api/notification-settings/': { status: 500, body: { detail: 'x' } },
    });
    renderApp('/podesavanja-obavestenja');
    await waitFor(() => expect(box('Dobili ste novu ocenu').checked).toBe(true), { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Sačuvaj' }));
    await screen.findByText('Čuvanje nije uspelo. Pokušajte ponovo.');
  });
});
