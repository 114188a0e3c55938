import { lazy } from 'react';
import { useRoutes, type RouteObject } from 'react-router-dom';
import { Layout } from './Layout';
import { AdminRoute, GuestOnlyRoute, ProtectedRoute } from './guards';
import NotFoundPage from './NotFoundPage';

// Route-level code splitting: every page is its own chunk.
const LandingPage = lazy(() => import('../features/landing/pages/LandingPage'));
const AuctionListPage = lazy(() => import('../features/auctions/pages/AuctionListPage'));
const AuctionDetailPage = lazy(() => import('../features/auctions/pages/AuctionDetailPage'));
const CreateAuctionPage = lazy(() => import('../features/auctions/pages/CreateAuctionPage'));
const MyAuctionsPage = lazy(() => import('../features/auctions/pages/MyAuctionsPage'));
const MyBidsPage = lazy(() => import('../features/auctions/pages/MyBidsPage'));
const WatchlistPage = lazy(() => import('../features/auctions/pages/WatchlistPage'));
const MemberPage = lazy(() => import('../features/auctions/pages/MemberPage'));
const MyPurchasesPage = lazy(() => import('../features/sales/pages/MyPurchasesPage'));
const MySalesPage = lazy(() => import('../features/sales/pages/MySalesPage'));
const LoginPage = lazy(() => import('../features/auth/pages/LoginPage'));
const RegisterPage = lazy(() => import('../features/auth/pages/RegisterPage'));
const ForgotPasswordPage = lazy(() => import('../features/auth/pages/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/pages/ResetPasswordPage'));
const ProfilePage = lazy(() => import('../features/profile/pages/ProfilePage'));
const ChangePasswordPage = lazy(() => import('../features/profile/pages/ChangePasswordPage'));
const NotificationsPage = lazy(() => import('../features/notifications/pages/NotificationsPage'));
const NotificationSettingsPage = lazy(() => import('../features/notifications/pages/NotificationSettingsPage'));
const SavedSearchesPage = lazy(() => import('../features/auctions/pages/SavedSearchesPage'));
const AdminDashboardPage = lazy(() => import('../features/admin/pages/AdminDashboardPage'));

/** Spec §2 routes with their access rules. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/pocetna', element: <LandingPage /> },
      { path: '/aukcije', element: <AuctionListPage /> },
      { path: '/aukcija', element: <AuctionListPage /> },
      { path: '/aukcija/:id', element: <AuctionDetailPage /> },
      { path: '/clan/:id', element: <MemberPage /> },
      { path: '/zaboravljena-lozinka', element: <ForgotPasswordPage /> },
      { path: '/zaboravljena-lozinka/:token', element: <ResetPasswordPage /> },
      {
        element: <GuestOnlyRoute />,
        children: [
          { path: '/login', element: <LoginPage /> },
          { path: '/registracija', element: <RegisterPage /> },
        ],
      },
      {
        element: <ProtectedRoute />,
        children: [
          { path: '/nova-aukcija', element: <CreateAuctionPage /> },
          { path: '/profil', element: <ProfilePage /> },
          { path: '/moje-aukcije', element: <MyAuctionsPage /> },
          { path: '/moje-licitacije', element: <MyBidsPage /> },
          { path: '/pracene', element: <WatchlistPage /> },
          { path: '/moje-kupovine', element: <MyPurchasesPage /> },
          { path: '/moje-prodaje', element: <MySalesPage /> },
          { path: '/notifikacije', element: <NotificationsPage /> },
          { path: '/podesavanja-obavestenja', element: <NotificationSettingsPage /> },
          { path: '/sacuvane-pretrage', element: <SavedSearchesPage /> },
          { path: '/promena-lozinke', element: <ChangePasswordPage /> },
        ],
      },
      {
        element: <AdminRoute />,
        children: [{ path: '/admin/dashboard', element: <AdminDashboardPage /> }],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * The routes under App's BrowserRouter. Not a data router (createBrowserRouter): no route loads data through
 * the router, and its data layer would be ~16 kB gz of every first load (issue 21).
 */
export function AppRoutes() {
  return useRoutes(routes);
}
