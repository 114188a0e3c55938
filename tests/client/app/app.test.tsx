import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../../client/src/app/App';
import { createQueryClient } from '../../../client/src/lib/query-client';
import { loggedOut, stubFetch } from './test-utils';

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('App: the route table under BrowserRouter (what the production client runs)', () => {
  // Lazy pages are transformed on their first import here: give them more than findBy's default second.
  const slow = { timeout: 8000 };

  it('renders the page of the address bar, follows a link to a lazy page, and goes back', async () => {
    stubFetch({ ...loggedOut, 'GET /api/auctions/': { body: { count: 0, next: null, previous: null, results: [] } } });
    window.history.replaceState(null, '', '/nepostojeca');
    const qc = createQueryClient();
    qc.setDefaultOptions({ queries: { ...qc.getDefaultOptions().queries, retry: false } });
    render(<App queryClient={qc} />);
    expect(await screen.findByText('Stranica koju tražite ne postoji!', {}, slow)).toBeTruthy();

    fireEvent.click(screen.getByRole('link', { name: 'Nazad na aukcije' }));
    await waitFor(() => expect(window.location.pathname).toBe('/aukcije'), slow);
    expect(await screen.findByPlaceholderText('Pretraži aukcije...', {}, slow)).toBeTruthy();
    expect(screen.queryByText('Stranica koju tražite ne postoji!')).toBeNull();

    act(() => window.history.back());
    expect(await screen.findByText('Stranica koju tražite ne postoji!', {}, slow)).toBeTruthy();
    expect(window.location.pathname).toBe('/nepostojeca');
  });
});
