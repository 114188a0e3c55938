import { sr } from '@shared/texts/sr';
import { Alert } from '../../../components/Alert';
import { EmptyState } from '../../../components/EmptyState';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { formatDateTime } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import type { NotificationResponse as Notification } from '@shared/schemas/notifications';
import { useMarkAsRead, useNotifications } from '../api/notifications';
import { notificationHtml } from '../sanitize';
import '../notifications.css';

export default function NotificationsPage() {
  useDocumentTitle(sr.notifications.title);
  const list = useNotifications();

  return (
    <div className="page notifications-page">
      <h1 className="page-title">{sr.notifications.title}</h1>
      {list.isPending ? (
        <LoadingScreen />
      ) : list.isError ? (
        <Alert kind="error">
          {sr.app.loadError}{' '}
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void list.refetch()}>
            {sr.app.retry}
          </button>
        </Alert>
      ) : list.data.length === 0 ? (
        <EmptyState>{sr.notifications.empty}</EmptyState>
      ) : (
        <ul className="notifications">
          {list.data.map((n) => (
            <NotificationItem key={n.id} n={n} />
          ))}
        </ul>
      )}
    </div>
  );
}

function NotificationItem({ n }: { n: Notification }) {
  const mark = useMarkAsRead();
  return (
    <li className={`notification card${n.is_read ? '' : ' notification--unread'}`}>
      <div className="notification__body">
        {/* Sanitised: only <a href> and <br> survive (see sanitize.ts). */}
        <p className="notification__message" dangerouslySetInnerHTML={{ __html: notificationHtml(n.message) }} />
        {n.created_at && (
          <p className="notification__time">
            <time dateTime={n.created_at}>{formatDateTime(n.created_at)}</time>
          </p>
        )}
      </div>
      {!n.is_read && (
        <button type="button" className="btn btn--secondary btn--sm" onClick={() => mark.mutate(n.id)} disabled={mark.isPending}>
          {sr.notifications.markRead}
        </button>
      )}
    </li>
  );
}
