import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { sr } from '@shared/texts/sr';
import { watchlistTexts } from '@shared/texts/watchlist';
import { Logo } from '../../components/Logo';
import { clearAuth, useAuth } from '../../features/auth/use-auth';
import { statusQuery } from '../../features/auth/api/status';
import { useLogout } from '../../features/auth/api/logout';
import { useUnreadCount } from '../../features/notifications/api/unread-count';
import { headerControls } from './header-rules';
import { BellIcon, HomeIcon, PlusIcon, UserIcon } from './icons';
import './header.css';

const HIDE_AFTER_PX = 5;
const SHOW_AFTER_PX = 4;

/** Hides the header after scrolling down > 5 px, shows it again after scrolling up > 4 px. */
function useHideOnScroll(): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    let anchor = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      if (y <= 0) {
        setHidden(false);
        anchor = 0;
        return;
      }
      const delta = y - anchor;
      if (delta > HIDE_AFTER_PX) {
        setHidden(true);
        anchor = y;
      } else if (delta < -SHOW_AFTER_PX) {
        setHidden(false);
        anchor = y;
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return hidden;
}

export function Header() {
  const { pathname } = useLocation();
  const auth = useAuth();
  const loggedIn = auth.status === 'authenticated';
  const c = headerControls(pathname, loggedIn);
  const hidden = useHideOnScroll();
  const [focusWithin, setFocusWithin] = useState(false);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [loggedOut, setLoggedOut] = useState(false);

  // Logout: first arrive on /aukcije, then forget the session (see useLogout).
  useEffect(() => {
    if (loggedOut && pathname === '/aukcije') {
      clearAuth(qc);
      setLoggedOut(false);
    }
  }, [loggedOut, pathname, qc]);
  const onLoggedOut = () => {
    setLoggedOut(true);
    navigate('/aukcije');
  };

  return (
    <header
      className={`site-header${hidden && !focusWithin ? ' site-header--hidden' : ''}`}
      onFocus={() => setFocusWithin(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocusWithin(false);
      }}
    >
      <nav className="site-header__inner" aria-label={sr.app.mainNav}>
        <Link to="/aukcije" className="site-header__logo" aria-label={sr.app.logoLabel}>
          <Logo className="site-header__logo-full" />
          <Logo className="site-header__logo-mark" compact />
        </Link>
        <div className="site-header__actions">
          {c.postAuction && (
            <Link to="/nova-aukcija" className="btn btn--primary btn--sm site-header__post">
              <PlusIcon />
              {sr.header.postAuction}
            </Link>
          )}
          {c.home && (
            <Link to="/aukcije" className="icon-btn" aria-label={sr.app.home} title={sr.app.home}>
              <HomeIcon />
            </Link>
          )}
          {c.haveAccount && (
            <span className="site-header__switch">
              <span className="site-header__switch-q">{sr.header.haveAccount}</span>
              <Link to="/login" className="btn btn--secondary btn--sm">
                {sr.header.login}
              </Link>
            </span>
          )}
          {c.noAccount && (
            <span className="site-header__switch">
              <span className="site-header__switch-q">{sr.header.noAccount}</span>
              <Link to="/registracija" className="btn btn--secondary btn--sm">
                {sr.header.register}
              </Link>
            </span>
          )}
          {c.login && (
            <Link to="/login" className="btn btn--secondary btn--sm">
              {sr.header.login}
            </Link>
          )}
          {c.register && (
            <Link to="/registracija" className="btn btn--brand-light btn--sm">
              {sr.header.register}
            </Link>
          )}
          {c.userControls && <NotificationBell pathname={pathname} />}
          {c.userControls && <UserMenu pathname={pathname} onLoggedOut={onLoggedOut} />}
        </div>
      </nav>
    </header>
  );
}

function NotificationBell({ pathname }: { pathname: string }) {
  const unread = useUnreadCount(true);
  const { refetch } = unread;
  // The spec fetches the unread count on every route change while logged in.
  useEffect(() => {
    void refetch();
  }, [pathname, refetch]);
  const count = unread.data ?? 0;
  const label = count > 0 ? `${sr.app.notifications}, ${sr.app.unreadCount(count)}` : sr.app.notifications;
  return (
    <Link to="/notifikacije" className="icon-btn site-header__bell" aria-label={label} title={sr.app.notifications}>
      <BellIcon />
      {count > 0 && (
        <span className="site-header__badge" data-testid="unread-badge" aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}

function UserMenu({ pathname, onLoggedOut }: { pathname: string; onLoggedOut: () => void }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const status = useQuery(statusQuery());
  const auth = useAuth();
  const username = status.data?.username ?? auth.user?.first_name ?? '';
  const logout = useLogout();

  // react-router commits a navigation in a transition (a lazy page may still be loading), so the pathname
  // seen here can change after the URL did: close only when the page differs from the one the menu opened on.
  const openedOn = useRef<string | null>(null);
  useEffect(() => {
    if (openedOn.current !== pathname) setOpen(false);
  }, [pathname]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent | TouchEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('touchstart', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('touchstart', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const onLogout = () => {
    setOpen(false);
    // Even if the call fails (e.g. the session had already ended) the user is out on this device.
    logout.mutate(undefined, { onSettled: onLoggedOut });
  };

  return (
    <div className="user-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-btn"
        aria-label={sr.app.userMenu}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => {
          openedOn.current = window.location.pathname;
          setOpen((o) => !o);
        }}
      >
        <UserIcon />
      </button>
      {open && (
        <div className="user-menu__panel" id={menuId}>
          <p className="user-menu__name">{username}</p>
          <ul className="user-menu__list">
            <li>
              <Link to="/profil">{sr.header.profile}</Link>
            </li>
            <li>
              <Link to="/moje-aukcije">{sr.header.myAuctions}</Link>
            </li>
            <li>
              <Link to="/moje-licitacije" title={sr.header.myBidsTooltip}>
                {sr.header.myBids}
              </Link>
            </li>
            <li>
              <Link to="/pracene">{watchlistTexts.title}</Link>
            </li>
            <li>
              <Link to="/moje-kupovine">{sr.header.myPurchases}</Link>
            </li>
            <li>
              <Link to="/moje-prodaje">{sr.header.mySales}</Link>
            </li>
            <li>
              <Link to="/sacuvane-pretrage">{sr.header.savedSearches}</Link>
            </li>
            <li>
              <Link to="/podesavanja-obavestenja">{sr.header.notificationSettings}</Link>
            </li>
            <li>
              <button type="button" onClick={onLogout} disabled={logout.isPending}>
                {sr.header.logout}
              </button>
            </li>
          </ul>
        </div>
      )}
    </div>
  );
}

export default Header;
