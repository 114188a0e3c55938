import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { watchlistTexts } from '@shared/texts/watchlist';
import { ApiError, isNotAuthenticated } from '../../../lib/api';
import { useAuth } from '../../auth/use-auth';
import { useToggleWatch } from '../api/watchlist';

export interface WatchButtonProps {
  auctionId: number;
  watched: boolean;
  /** On cards the button names its auction ('Prati aukciju {title}' / 'Pratite aukciju {title}'). */
  title?: string;
  variant?: 'card' | 'detail';
}

function EyeIcon({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        d="M12 5C6.5 5 2.7 9.4 1.5 12c1.2 2.6 5 7 10.5 7s9.3-4.4 10.5-7C21.3 9.4 17.5 5 12 5Z"
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <circle cx="12" cy="12" r="3.2" fill={filled ? 'var(--color-brand)' : 'none'} stroke={filled ? 'none' : 'currentColor'} strokeWidth="2" />
    </svg>
  );
}

/** The "Prati" toggle: optimistic, put back with a message when the server refuses; visitors go to /login. */
export function WatchButton({ auctionId, watched, title, variant = 'card' }: WatchButtonProps) {
  const auth = useAuth();
  const navigate = useNavigate();
  const toggle = useToggleWatch(auctionId);
  const [error, setError] = useState<string | null>(null);

  const onClick = () => {
    if (toggle.isPending) return;
    if (auth.status !== 'authenticated') {
      if (auth.status === 'anonymous') navigate('/login');
      return;
    }
    setError(null);
    toggle.mutate(!watched, {
      onError: (err) => {
        // A session that ended is taken to /login by the app's SessionEndWatcher.
        if (isNotAuthenticated(err)) return;
        setError(err instanceof ApiError && err.status === 404 ? sr.auctions.notFound : watchlistTexts.failed);
      },
    });
  };

  return (
    <div className={`watch watch--${variant}`}>
      <button
        type="button"
        className={`watch__btn${watched ? ' watch__btn--on' : ''}`}
        aria-pressed={watched}
        title={watched ? watchlistTexts.unwatch : undefined}
        aria-busy={toggle.isPending || undefined}
        onClick={onClick}
        data-testid="watch-toggle"
      >
        <EyeIcon filled={watched} />
        <span>{watched ? watchlistTexts.watching : watchlistTexts.watch}</span>
        {/* The visible word starts the name (label in name); cards add their auction for screen readers. */}
        {title && <span className="visually-hidden"> {sr.watch.ofAuction(title)}</span>}
      </button>
      {error && (
        <p className="watch__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
