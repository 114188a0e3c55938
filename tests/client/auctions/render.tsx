import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

export const testUser = {
  id: 7,
  first_name: 'Marko Marković',
  email: 'marko@example.com',
  phone_number: '0641234567',
  city: 'Novi Sad',
  is_superuser: false,
};

function Where() {
  const loc = useLocation();
  return <output data-testid="location">{loc.pathname + loc.search}</output>;
}

/** Renders `ui` at `path` with a fresh query cache; `user` seeds the session (no network needed). */
export function renderWithApp(ui: ReactElement, opts: { path?: string; route?: string; user?: typeof testUser | null; seed?: (qc: QueryClient) => void } = {}) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
  const user = opts.user === undefined ? testUser : opts.user;
  qc.setQueryData(['auth', 'status'], { is_authenticated: !!user, username: user?.first_name ?? null });
  if (user) qc.setQueryData(['auth', 'me'], user);
  opts.seed?.(qc);
  const path = opts.path ?? '/';
  const result = render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={opts.route ?? '*'} element={ui} />
          <Route path="/login" element={<p>login page</p>} />
        </Routes>
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, qc };
}
