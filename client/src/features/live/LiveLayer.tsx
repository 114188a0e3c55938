import { lazy, Suspense, useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { sr } from '@shared/texts/sr';
import { useAuth } from '../auth/use-auth';
import { formatPrice } from '../../lib/format';
import { reconnectSocket } from '../../lib/socket';
import { live } from './live-client';
import { useStore } from './store';
import './live.css';

const loadNoticeToasts = () => import('./NoticeToasts');
// If the chunk cannot be fetched the notice is not shown as a toast (the bell still counts it), rather than the
// error taking the page down.
const NoticeToasts = lazy(() => loadNoticeToasts().catch(() => ({ default: () => null })));

/**
 * Mounted once in the layout: opens the app's socket, reconnects it when the session changes (login,
 * logout: the identity is fixed at the handshake), and shows the connection indicator and outbid toasts.
 */
export function LiveLayer() {
  const qc = useQueryClient();
  const auth = useAuth();

  useEffect(() => {
    live.start(qc);
    return () => live.stop();
  }, [qc]);

  // 0 = anonymous, null = not known yet. A change between two known identities needs a new handshake.
  const identity = auth.status === 'loading' ? null : (auth.user?.id ?? 0);
  const seen = useRef<number | null>(null);
  useEffect(() => {
    if (identity === null) return;
    live.setUser(identity === 0 ? null : identity);
    if (seen.current !== null && seen.current !== identity) reconnectSocket();
    seen.current = identity;
    // Only a logged-in user gets notifications: fetch their toast's chunk now, not when the first one arrives.
    if (identity !== 0) loadNoticeToasts().catch(() => undefined);
  }, [identity]);

  return (
    <>
      <LiveStatusIndicator />
      <OutbidToasts />
    </>
  );
}

function LiveStatusIndicator() {
  const status = useStore(live.status);
  const text = status === 'offline' ? sr.live.offline : status === 'restored' ? sr.live.online : '';
  return (
    <div className={`live-status${text ? ` live-status--${status}` : ''}`} role="status" aria-live="polite" data-testid="live-status" data-status={status}>
      {text}
    </div>
  );
}

function OutbidToasts() {
  const toasts = useStore(live.toasts);
  const notices = useStore(live.notices);
  return (
    <div className="live-toasts" aria-live="polite" aria-relevant="additions">
      {notices.length > 0 && (
        <Suspense fallback={null}>
          <NoticeToasts notices={notices} />
        </Suspense>
      )}
      {toasts.map((t) => (
        <div key={t.id} className="live-toast" role="status" data-testid="outbid-toast">
          <p className="live-toast__title">{sr.live.outbidTitle}</p>
          <p className="live-toast__text">{sr.live.outbid(t.title, formatPrice(t.price))}</p>
          <div className="live-toast__actions">
            <Link to={`/aukcija/${t.auctionId}`} className="live-toast__link" onClick={() => live.dismissToast(t.id)}>
              {sr.live.openAuction}
            </Link>
            <button type="button" className="live-toast__close" aria-label={sr.live.closeToast} onClick={() => live.dismissToast(t.id)}>
              ×
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}

export default LiveLayer;
