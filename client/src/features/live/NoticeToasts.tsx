import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { notificationHtml } from '../notifications/sanitize';
import { live, type NoticeToast } from './live-client';

/**
 * New notifications as toasts. A chunk of its own (LiveLayer loads it lazily): DOMPurify is 11 kB gz that an
 * anonymous first visit never needs (issue 21). LiveLayer fetches it as soon as someone is logged in.
 */
export default function NoticeToasts({ notices }: { notices: NoticeToast[] }): ReactNode {
  return notices.map((n) => (
    <div key={n.id} className="live-toast live-toast--notice" role="status" data-testid="notice-toast">
      <p className="live-toast__title">{sr.notice.title}</p>
      {/* Sanitised like the notification list: only <a href> and <br> survive. */}
      <p className="live-toast__text" dangerouslySetInnerHTML={{ __html: notificationHtml(n.message) }} />
      <div className="live-toast__actions">
        {n.auctionId !== null ? (
          <Link to={`/aukcija/${n.auctionId}`} className="live-toast__link" onClick={() => live.dismissNotice(n.id)}>
            {sr.live.openAuction}
          </Link>
        ) : (
          <span />
        )}
        <button type="button" className="live-toast__close" aria-label={sr.live.closeToast} onClick={() => live.dismissNotice(n.id)}>
          ×
        </button>
      </div>
    </div>
  ));
}
