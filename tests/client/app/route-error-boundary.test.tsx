import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes } from 'react-router-dom';
import { RouteErrorBoundary } from '../../../client/src/app/RouteErrorBoundary';

afterEach(() => vi.restoreAllMocks());

function Broken(): never {
  throw new Error('Failed to fetch dynamically imported module');
}

describe('RouteErrorBoundary (what the data router showed when a page threw)', () => {
  it('shows the error in place of the page', () => {
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
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Unexpected Application Error!');
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe('Failed to fetch dynamically imported module');
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
    expect(screen.getByText('jednom')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('link', { name: 'dalje' }));
    expect(screen.getByText('Radi')).toBeTruthy();
  });
});
