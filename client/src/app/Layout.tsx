import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { LoadingScreen } from '../components/LoadingScreen';
import { Header } from './layout/Header';
import { Footer } from './layout/Footer';
import { ScrollToTop } from './ScrollToTop';
import { LiveLayer } from '../features/live/LiveLayer';
import { SessionEndWatcher } from '../features/auth/SessionEndWatcher';

export function Layout() {
  return (
    <>
      <ScrollToTop />
      <Header />
      <main className="app-main" id="main">
        <Suspense fallback={<LoadingScreen />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <LiveLayer />
      <SessionEndWatcher />
    </>
  );
}

export default Layout;
