import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notificationHtml } from '../../../client/src/features/notifications/sanitize';
import { loggedIn, renderApp, stubFetch } from '../app/test-utils';

afterEach(() => vi.unstubAllGlobals());

describe('notificationHtml', () => {
  it('keeps line breaks and links, drops everything else', () => {
    const html = notificationHtml('Nova ponuda na <a href="/aukcija/3" onclick="alert(1)">Bicikl</a>.\nIznos: 500 din.<script>alert(1)</script><img src=x onerror=alert(1)><b>x</b>');
    expect(html).toBe('Nova ponuda na <a href="/aukcija/3">Bicikl</a>.<br>Iznos: 500 din.x');
  });

  it('removes javascript: links', () => {
    expect(notificationHtml('<a href="javascript:alert(1)">klik</a>')).toBe('<a>klik</a>');
  });
});

describe('NotificationsPage', () => {
  it("shows 'Trenutno nemate notifikacije' when empty", async () => {
    stubFetch({ ...loggedIn(), 'GET /api/notifications/': { body: [] } });
    renderApp('/notifikacije');
    await screen.findByRole('heading', { name: 'Moje notifikacije' }, { timeout: 5000 });
    expect(await screen.findByText('Trenutno nemate notifikacije')).toBeTruthy();
  });

  it('renders messages as markup and marks one as read (list and bell update)', async () => {
    let unread = 2;
    const calls = stubFetch({
      ...loggedIn(),
      'GET /api/notifications/unread-count/': () => ({ body: { unread_notifications_count: unread } }),
      'GET /api/notifications/': {
        body: [
          { id: 2, message: 'Nova ponuda na <a href="/aukcija/5">Gitara</a>.\nIznos: 900 din.', is_read: false, created_at: '2025-03-01T10:00:00Z', auction_id: 5, kind: 'new_bid' },
          { id: 1, message: 'Stara poruka', is_read: true, created_at: '2025-02-01T10:00:00Z', auction_id: null, kind: 'won' },
        ],
      },
      'PATCH /api/notifications/2/mark-as-read/': () => {
        unread = 1;
        return { body: { id: 2, is_read: true, unread_notifications_count: 1 } };
      },
    });
    renderApp('/notifikacije');
    const link = await screen.findByRole('link', { name: 'Gitara' }, { timeout: 5000 });
    expect(link.getAttribute('href')).toBe('/aukcija/5');
    expect(link.closest('p')?.innerHTML).toContain('<br>');
    const buttons = screen.getAllByRole('button', { name: 'Označi kao pročitano' });
    expect(buttons).toHaveLength(1);
    const badge = await screen.findByTestId('unread-badge');
    expect(badge.textContent).toBe('2');
    fireEvent.click(buttons[0]);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Označi kao pročitano' })).toBeNull());
    expect(calls.some((c) => c.method === 'PATCH' && c.path === '/api/notifications/2/mark-as-read/')).toBe(true);
    await waitFor(() => expect(within(screen.getByRole('banner')).getByTestId('unread-badge').textContent).toBe('1'));
  });

  it('goes to /login when the server says the session has ended', async () => {
    let authenticated = true;
    stubFetch({
      ...loggedIn(),
      'GET /api/user/status/': () => ({ body: { is_authenticated: authenticated, username: authenticated ? 'Milica' : null } }),
      'GET /api/notifications/': () => {
        authenticated = false;
        return { status: 403, body: { detail: 'Morate biti prijavljeni.', code: 'not_authenticated' } };
      },
    });
    const app = renderApp('/notifikacije');
    await waitFor(() => expect(app.pathname()).toBe('/login'), { timeout: 5000 });
  });
});
