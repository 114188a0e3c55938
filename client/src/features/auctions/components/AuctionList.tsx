import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { sr } from '@shared/texts/sr';
import type { Sort } from '@shared/schemas/auctions';
import { PAGE_SIZE } from '@shared/rules/limits';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { Spinner } from '../../../components/Spinner';
import { useAuctionList, type ListSource } from '../api/auctions-list';
import { deleteErrorMessage, useDeleteAuction } from '../api/delete-auction';
import type { AuctionCard as Card } from '@shared/schemas/auctions';
import { useListParams } from '../hooks/use-list-params';
import { useWatchAuctions } from '../../live/hooks';
import { AuctionCard } from './AuctionCard';
import { DeleteAuctionDialog } from './DeleteAuctionDialog';
import { Filters } from './Filters';
import { Pagination } from '../../../components/Pagination';
import './auctions.css';

// Issue 28's price and city filters and 'Sačuvaj pretragu': their own chunk, loaded when used (first-load budget).
const PriceCityFilters = lazy(() => import('./ListExtras').then((m) => ({ default: m.PriceCityFilters })));
const SaveSearchButton = lazy(() => import('./ListExtras').then((m) => ({ default: m.SaveSearchButton })));

export interface AuctionListProps {
  source: ListSource;
  title?: string;
  /** Keep the heading for screen readers only (/aukcije). */
  titleHidden?: boolean;
  /** Own lists (/moje-aukcije, /moje-licitacije) mark ended auctions. */
  markEnded?: boolean;
  /** /moje-aukcije: auctions without bids can be deleted. */
  deletable?: boolean;
  /** What an empty list says (default: the spec's text for an empty category). */
  emptyText?: string;
  /** More buttons on each card (/moje-aukcije: 'Ponovo postavi', issue 26), from the page's own chunk. */
  cardActions?: (auction: Card) => ReactNode;
}

/** The shared list view: filters, cards, empty state, pagination; state kept in the URL. */
export function AuctionList({ source, title, titleHidden, markEnded, deletable, emptyText, cardActions }: AuctionListProps) {
  const [params, update] = useListParams();
  const list = useAuctionList(source, params);
  const del = useDeleteAuction();
  const [toDelete, setToDelete] = useState<Card | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const onSearch = useCallback((q: string) => update({ q }, { replace: true }), [update]);
  const onSort = useCallback((sort: Sort) => update({ sort }), [update]);
  const onCategory = useCallback((category: string) => update({ category }), [update]);
  const extraActive = !!(params.min_price || params.max_price || params.city);
  const searching = extraActive || !!params.q.trim() || (!!params.category && params.category !== 'all-auctions');
  const onPage = useCallback(
    (page: number) => {
      update({ page });
      window.scrollTo({ top: 0 });
    },
    [update],
  );

  // A page beyond the end (e.g. after deleting the last card) falls back to the last page.
  const data = list.data;
  // Live: the cards on screen follow their auctions' rooms (price, bid count, end date, status).
  const live = useWatchAuctions(list.isPlaceholderData ? undefined : data?.results.map((a) => a.id));
  useEffect(() => {
    if (data && data.results.length === 0 && params.page > 1 && !list.isPlaceholderData) {
      update({ page: Math.max(1, Math.ceil(data.count / PAGE_SIZE)) }, { replace: true });
    }
  }, [data, params.page, list.isPlaceholderData, update]);

  const confirmDelete = () => {
    if (!toDelete) return;
    setDeleteError(null);
    del.mutate(toDelete.id, {
      onSuccess: () => setToDelete(null),
      onError: (err) => setDeleteError(deleteErrorMessage(err)),
    });
  };

  return (
    <section className="auction-list">
      {title && <h1 className={titleHidden ? 'visually-hidden' : 'auction-list__title'}>{title}</h1>}
      <Filters
        q={params.q}
        sort={params.sort}
        category={params.category}
        showCategory={source === 'all'}
        onSearch={onSearch}
        onSort={onSort}
        onCategory={onCategory}
        extraActive={extraActive}
        extra={
          <Suspense fallback={null}>
            <PriceCityFilters params={params} onChange={update} />
          </Suspense>
        }
      />
      {source === 'all' && searching && (
        <Suspense fallback={null}>
          <SaveSearchButton params={params} />
        </Suspense>
      )}
      {list.isPending ? (
        <LoadingScreen />
      ) : list.isError && !data ? (
        <p className="auction-list__error" role="alert">
          {sr.auctions.loadError}
        </p>
      ) : data && data.results.length === 0 ? (
        <p className="auction-list__empty">{emptyText && !params.q.trim() ? emptyText : sr.list.empty}</p>
      ) : data ? (
        <div className="auction-list__wrap" aria-busy={list.isFetching}>
          {list.isPlaceholderData && (
            <div className="auction-list__refetch">
              <Spinner />
            </div>
          )}
          <ul className={`auction-grid${list.isPlaceholderData ? ' auction-grid--stale' : ''}`} data-live={live ? 'on' : 'off'}>
            {data.results.map((a, i) => (
              <li key={a.id}>
                <AuctionCard
                  auction={a}
                  markEnded={markEnded}
                  eager={i < 4}
                  actions={cardActions}
                  onDelete={
                    deletable
                      ? (c) => {
                          setDeleteError(null);
                          setToDelete(c);
                        }
                      : undefined
                  }
                />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {data && (data.results.length > 0 || params.page > 1) && (
        <Pagination page={params.page} hasPrevious={params.page > 1} hasNext={data.next !== null} onPage={onPage} />
      )}
      {deletable && (
        <DeleteAuctionDialog
          open={toDelete !== null}
          busy={del.isPending}
          error={deleteError}
          onConfirm={confirmDelete}
          onClose={() => {
            if (!del.isPending) setToDelete(null);
          }}
        />
      )}
    </section>
  );
}
