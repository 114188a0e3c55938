import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { routes } from '../../../client/src/app/router';
import { createQueryClient } from '../../../client/src/lib/query-client';

// jsdom has no scrolling; ScrollToTop and the header only need the calls to exist.
window.scrollTo = (() => undefined) as typeof window.scrollTo;

export interface StubResponse {
  status?: number;
  body?: unknown;
}
export type StubHandler = StubResponse | ((req: { method: string; path: string; body: unknown }) => StubResponse);

export interface FetchCall {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Replaces fetch (the network boundary) with a table of 'METHOD /path' → answer. Unknown calls get a
 * 404 JSON. Returns the recorded calls.
 */
export function stubFetch(table: Record<string, StubHandler>): FetchCall[] {
  const calls: FetchCall[] = [];
  document.cookie = 'csrftoken=test-token; path=/';
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    let body: unknown = init?.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        // keep the text
      }
    }
    const headers = Object.fromEntries(Object.entries((init?.headers as Record<string, string>) ?? {}));
    calls.push({ method, path: url.pathname + url.search, body, headers });
    const handler = table[`${method} ${url.pathname + url.search}`] ?? table[`${method} ${url.pathname}`];
    const res = handler === undefined ? { status: 404, body: { detail: 'Not found' } } : typeof handler === 'function' ? handler({ method, path: url.pathname, body }) : handler;
    const status = res.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(res.body ?? {}), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

export const loggedOut = { 'GET /api/user/status/': { body: { is_authenticated: false, username: null } } };

export const USER = {
  id: 7,
  first_name: 'Milica Marković',
  phone_number: '0641234567',
  city: 'Beograd',
  email: 'milica@primer.rs',
  is_superuser: false,
  is_verified: true,
  has_password: true,
};

export const loggedIn = (user = USER, unread = 0) => ({
  'GET /api/user/status/': { body: { is_authenticated: true, username: user.first_name } },
  'GET /api/current_user_data/': { body: user },
  'GET /api/notifications/unread-count/': { body: { unread_notifications_count: unread } },
});

/** The real route table in a memory router at `path`. */
export function renderApp(path: string) {
  const qc = createQueryClient();
  qc.setDefaultOptions({ queries: { ...qc.getDefaultOptions().queries, retry: false } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <QueryClientProvider client={qc}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, router, qc, pathname: () => router.state.location.pathname };
}
