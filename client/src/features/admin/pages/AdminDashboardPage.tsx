import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { sr } from '@shared/texts/sr';
import type { AuctionCard } from '@shared/schemas/auctions';
import { Alert } from '../../../components/Alert';
import { Dialog } from '../../../components/Dialog';
import { EmptyState } from '../../../components/EmptyState';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { ApiError } from '../../../lib/api';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAuth } from '../../../app/auth';
import { deleteAuction, deleteErrorMessage } from '../../auctions/api/delete-auction';
import { adminAuctionsKey, useAdminAuctions } from '../api/admin-auctions';
import { useAdminUsers, useSetBlocked } from '../api/admin-users';
import '../admin.css';

const t = sr.admin;

export default function AdminDashboardPage() {
  useDocumentTitle(t.title);
  return (
    <div className="page admin-page">
      <h1 className="page-title">{t.title}</h1>
      <AuctionsSection />
      <UsersSection />
    </div>
  );
}

function AuctionsSection() {
  const [page, setPage] = useState(1);
  const list = useAdminAuctions(page);
  const qc = useQueryClient();
  const [toDelete, setToDelete] = useState<AuctionCard | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await deleteAuction(toDelete.id);
      setMessage({ kind: 'success', text: t.deleted });
      await qc.invalidateQueries({ queryKey: adminAuctionsKey });
      void qc.invalidateQueries({ queryKey: ['auctions'] });
    } catch (err) {
      setMessage({ kind: 'error', text: deleteErrorMessage(err) });
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  };

  const data = list.data;
  return (
    <section className="admin-section" aria-labelledby="admin-auctions-title">
      <h2 id="admin-auctions-title" className="admin-section__title">
        {t.auctionsTitle}
        {data && <span className="admin-section__count"> ({data.count})</span>}
      </h2>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      {list.isPending ? (
        <LoadingScreen />
      ) : list.isError ? (
        <Alert kind="error">{sr.app.loadError}</Alert>
      ) : data && data.results.length === 0 ? (
        <EmptyState>{t.noAuctions}</EmptyState>
      ) : (
        <ul className="admin-list">
          {data?.results.map((a) => (
            <li key={a.id} className="admin-row card">
              <div className="admin-row__main">
                <Link to={`/aukcija/${a.id}`} className="admin-row__title">
                  {a.title}
                </Link>
                <p className="admin-row__meta">
                  <span>{formatPrice(a.current_price)}</span>
                  <span>{t.bids(a.bid_count)}</span>
                  <span>
                    {t.colEnds}: <time dateTime={a.end_date}>{formatDateTime(a.end_date)}</time>
                  </span>
                  <span className={`badge ${a.status === 'ended' ? 'badge--muted' : 'badge--ok'}`}>
                    {a.status === 'ended' ? t.ended : t.active}
                  </span>
                </p>
              </div>
              <button
                type="button"
                className="btn btn--danger btn--sm"
                onClick={() => {
                  setMessage(null);
                  setToDelete(a);
                }}
                aria-label={`${t.delete}: ${a.title}`}
              >
                {t.delete}
              </button>
            </li>
          ))}
        </ul>
      )}
      {data && (data.previous !== null || data.next !== null) && (
        <nav className="admin-pager" aria-label={t.auctionsTitle}>
          <button type="button" className="btn btn--secondary btn--sm" disabled={data.previous === null} onClick={() => setPage((p) => Math.max(1, p - 1))}>
            {sr.list.previous}
          </button>
          <span aria-current="page">{page}</span>
          <button type="button" className="btn btn--secondary btn--sm" disabled={data.next === null} onClick={() => setPage((p) => p + 1)}>
            {sr.list.next}
          </button>
        </nav>
      )}
      <Dialog
        open={!!toDelete}
        role="alertdialog"
        title={sr.deleteAuction.title}
        onClose={() => !deleting && setToDelete(null)}
        actions={
          <>
            <button type="button" className="btn btn--secondary" onClick={() => setToDelete(null)} disabled={deleting}>
              {sr.common.cancel}
            </button>
            <button type="button" className="btn btn--danger" onClick={() => void confirmDelete()} disabled={deleting}>
              {sr.common.yes}
            </button>
          </>
        }
      >
        <p>{sr.deleteAuction.question}</p>
        {toDelete && <p className="admin-dialog__item">{toDelete.title}</p>}
      </Dialog>
    </section>
  );
}

function UsersSection() {
  const users = useAdminUsers();
  const setBlocked = useSetBlocked();
  const { user: me } = useAuth();
  const [error, setError] = useState<string | null>(null);

  const toggle = (id: number, blocked: boolean) => {
    setError(null);
    setBlocked.mutate(
      { id, blocked },
      { onError: (err) => setError(err instanceof ApiError && err.body.detail ? err.body.detail : t.actionError) },
    );
  };

  return (
    <section className="admin-section" aria-labelledby="admin-users-title">
      <h2 id="admin-users-title" className="admin-section__title">
        {t.usersTitle}
      </h2>
      {error && <Alert kind="error">{error}</Alert>}
      {users.isPending ? (
        <LoadingScreen />
      ) : users.isError ? (
        <Alert kind="error">{sr.app.loadError}</Alert>
      ) : users.data.length === 0 ? (
        <EmptyState>{t.noUsers}</EmptyState>
      ) : (
        <ul className="admin-list">
          {users.data.map((u) => (
            <li key={u.id} className="admin-row card">
              <div className="admin-row__main">
                <span className="admin-row__title">{u.first_name}</span>
                <p className="admin-row__meta">
                  <span className="admin-row__email">{u.email}</span>
                  {u.is_superuser && <span className="badge badge--ok">{t.admin}</span>}
                  {!u.is_verified && <span className="badge badge--muted">{t.unverified}</span>}
                  {u.is_blocked && <span className="badge badge--danger">{t.blocked}</span>}
                </p>
              </div>
              {u.id !== me?.id && (
                <button
                  type="button"
                  className={`btn btn--sm ${u.is_blocked ? 'btn--secondary' : 'btn--danger'}`}
                  onClick={() => toggle(u.id, !u.is_blocked)}
                  disabled={setBlocked.isPending && setBlocked.variables?.id === u.id}
                  aria-label={`${u.is_blocked ? t.unblock : t.block}: ${u.first_name}`}
                >
                  {u.is_blocked ? t.unblock : t.block}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
