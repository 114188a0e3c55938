import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { sr } from '@shared/texts/sr';
import type { AuctionCard } from '@shared/schemas/auctions';
import type { AdminAuctionStatus } from '@shared/rules/admin';
import { Alert } from '../../../components/Alert';
import { Dialog } from '../../../components/Dialog';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { deleteErrorMessage, useDeleteAuction } from '../../auctions/api/delete-auction';
import { adminAuctionsKey, useAdminAuctions } from '../api/admin-auctions';
import { DASHBOARD_SORTS, type AdminParams, type DashboardSort } from '../hooks/use-admin-params';
import { AdminPager } from './AdminPager';
import { ListStates } from './ListStates';
import { SearchBox } from './SearchBox';

const t = sr.admin;
/** The server's limit on a list search. */
const SEARCH_MAX = 200;

export interface AuctionsPanelProps {
  params: AdminParams;
  update: (patch: Partial<AdminParams>) => void;
}

/** Every auction (ended too): search, status filter, sort, paging, delete after confirmation. */
export function AuctionsPanel({ params, update }: AuctionsPanelProps) {
  const { q, status, sort, page } = params;
  const list = useAdminAuctions({ q, status, sort, page });
  const qc = useQueryClient();
  const deleteAuction = useDeleteAuction();
  const [toDelete, setToDelete] = useState<AuctionCard | null>(null);
  // Not deleteAuction.isPending: the dialog stays busy until the admin list has dropped the row.
  const [deleting, setDeleting] = useState(false);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const onSearch = useCallback((text: string) => update({ q: text }), [update]);

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await deleteAuction.mutateAsync(toDelete.id);
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
      <div className="admin-filters">
        <SearchBox label={t.searchAuctions} placeholder={t.searchAuctionsPlaceholder} value={q} onSearch={onSearch} maxLength={SEARCH_MAX} />
        <label className="field admin-filters__select">
          <span className="field__label">{t.statusLabel}</span>
          <select className="field__input" value={status} onChange={(e) => update({ status: e.target.value as AdminAuctionStatus | '' })}>
            <option value="">{t.statusAll}</option>
            <option value="active">{t.statusActive}</option>
            <option value="ended">{t.statusEnded}</option>
          </select>
        </label>
        <label className="field admin-filters__select">
          <span className="field__label">{t.sortLabel}</span>
          <select className="field__input" value={sort} onChange={(e) => update({ sort: e.target.value as DashboardSort })}>
            {DASHBOARD_SORTS.map((s) => (
              <option key={s} value={s}>
                {t.sort[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      <ListStates
        pending={list.isPending}
        error={list.isError && !data}
        onRetry={() => void list.refetch()}
        rows={data?.results.length ?? 0}
        count={data?.count ?? 0}
        filtered={!!q || !!status}
        q={q}
        emptyText={t.noAuctions}
        onFirstPage={() => update({ page: 1 })}
      >
        <ul className="admin-list" aria-busy={list.isPlaceholderData}>
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
                  <span className={`badge ${a.status === 'ended' ? 'badge--muted' : 'badge--ok'}`}>{a.status === 'ended' ? t.ended : t.active}</span>
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
      </ListStates>
      <AdminPager label={t.pagination(t.auctionsTitle)} page={page} result={data} onPage={(p) => update({ page: p })} />
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
