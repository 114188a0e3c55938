import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes } from 'react-router-dom';
import { RouteErrorBoundary } from '../../../client/src/app/RouteErrorBoundary';

afterEach(() => vi.restoreAllMocks());

function Broken(): never {
  throw new Error('Failed to fetch dynamically imported module');
}

describe('RouteErrorBoundary (a page that throws while rendering)', () => {
  it('shows a Serbian error page with a reload button in place of the page, without the error text', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // React and the boundary report the throw
    render(
      <MemoryRouter initialEntries={['/pokvareno']}>
        <RouteErrorBoundary>
          <Routes>
            <Route path="/pokvareno" element={<Broken />} />
          </Routes>
        </RouteErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Došlo je do greške');
    expect(screen.getByRole('button', { name: 'Osveži stranicu' })).toBeTruthy();
    expect(screen.queryByText(/Failed to fetch/)).toBeNull();
  });

  it('resets when the location changes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    function Flaky() {
      if (fail) throw new Error('jednom');
      return <p>Radi</p>;
    }
    render(
      <MemoryRouter initialEntries={['/a']}>
        <RouteErrorBoundary>
          <Routes>
            <Route path="/a" element={<Flaky />} />
            <Route path="/b" element={<Flaky />} />
          </Routes>
        </RouteErrorBoundary>
        <Link to="/b">dalje</Link>
      </MemoryRouter>,
    );
    expect(screen.getByText('Došlo je do greške')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('link', { name: 'dalje' }));
    expect(screen.getByText('Radi')).toBeTruthy();
  });
});
