import type { ReactNode } from 'react';
import { sr } from '@shared/texts/sr';
import { Alert } from '../../../components/Alert';
import { EmptyState } from '../../../components/EmptyState';
import { LoadingScreen } from '../../../components/LoadingScreen';

const t = sr.admin;

export interface ListStatesProps {
  pending: boolean;
  error: boolean;
  onRetry: () => void;
  /** Rows on this page. */
  rows: number;
  /** Matches over every page. */
  count: number;
  /** A search or filter is applied: an empty list means "nothing found", not "nothing at all". */
  filtered: boolean;
  q: string;
  emptyText: string;
  onFirstPage: () => void;
  children: ReactNode;
}

/** Loading, error (with retry), empty (nothing at all / nothing found / past the last page) or the list. */
export function ListStates({ pending, error, onRetry, rows, count, filtered, q, emptyText, onFirstPage, children }: ListStatesProps) {
  if (pending) return <LoadingScreen />;
  if (error)
    return (
      <Alert kind="error">
        {sr.app.loadError}{' '}
        <button type="button" className="btn btn--secondary btn--sm" onClick={onRetry}>
          {t.retry}
        </button>
      </Alert>
    );
  if (rows === 0 && count > 0)
    return (
      <EmptyState>
        {t.pastLastPage}{' '}
        <button type="button" className="btn btn--secondary btn--sm" onClick={onFirstPage}>
          {t.firstPage}
        </button>
      </EmptyState>
    );
  if (rows === 0) return <EmptyState>{filtered ? t.noResults(q) : emptyText}</EmptyState>;
  return <>{children}</>;
}

/** ListStates' props that come from a paged query as they are (loading, error with retry, counts, back to page 1). */
export function pagedStates(
  query: { isPending: boolean; isError: boolean; data?: { count: number; results: unknown[] }; refetch: () => unknown },
  toFirstPage: () => void,
): Pick<ListStatesProps, 'pending' | 'error' | 'onRetry' | 'rows' | 'count' | 'onFirstPage'> {
  return {
    pending: query.isPending,
    error: query.isError && !query.data,
    onRetry: () => void query.refetch(),
    rows: query.data?.results.length ?? 0,
    count: query.data?.count ?? 0,
    onFirstPage: toFirstPage,
  };
}
