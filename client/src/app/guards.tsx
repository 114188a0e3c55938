import { useRef } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { LoadingScreen } from '../components/LoadingScreen';
import { useAuth } from '../features/auth/use-auth';
import NotFoundPage from './NotFoundPage';

/** Logged-in users only: 'Učitavanje...' while the session is checked, /login when logged out. */
export function ProtectedRoute() {
  const auth = useAuth();
  const location = useLocation();
  if (auth.status === 'loading') return <LoadingScreen />;
  if (auth.status === 'anonymous') return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <Outlet />;
}

/** Admins only: others see the 404 page, logged-out visitors go to /login. */
export function AdminRoute() {
  const auth = useAuth();
  if (auth.status === 'loading') return <LoadingScreen />;
  if (auth.status === 'anonymous') return <Navigate to="/login" replace />;
  if (!auth.user?.is_superuser) return <NotFoundPage />;
  return <Outlet />;
}

/**
 * /login and /registracija: a user who is already logged in when the page opens goes to /aukcije.
 * The decision is taken once per visit, so the login page can show its success message (and wait
 * 1.8 s) after the session changes under it.
 */
export function GuestOnlyRoute() {
  const location = useLocation();
  return <GuestOnlyGate key={location.pathname} />;
}

function GuestOnlyGate() {
  const auth = useAuth();
  const decision = useRef<'guest' | 'redirect' | null>(null);
  if (decision.current === null && auth.status !== 'loading') {
    decision.current = auth.status === 'authenticated' ? 'redirect' : 'guest';
  }
  if (decision.current === null) return <LoadingScreen />;
  if (decision.current === 'redirect') return <Navigate to="/aukcije" replace />;
  return <Outlet />;
}
