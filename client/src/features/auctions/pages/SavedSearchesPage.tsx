import { Link } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { CATEGORIES } from '@shared/categories';
import type { SavedSearch } from '@shared/schemas/saved-searches';
import { savedSearchTexts as t } from '@shared/texts/saved-searches';
import { Alert } from '../../../components/Alert';
import { EmptyState } from '../../../components/EmptyState';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useDeleteSavedSearch, useSavedSearches } from '../api/saved-searches';
import './saved-searches.css';

/** What the search looks for, in words: „text”, category, price bounds, city. */
function describe(s: SavedSearch): string {
  const parts: string[] = [];
  if (s.q) parts.push(`„${s.q}”`);
  parts.push(CATEGORIES.find((c) => c.value === s.category)?.label ?? (s.category || t.anyCategory));
  if (s.min_price !== null) parts.push(t.priceFrom(s.min_price));
  if (s.max_price !== null) parts.push(t.priceTo(s.max_price));
  if (s.city) parts.push(s.city);
  return parts.join(' · ');
}

/** The list with the search's criteria (/aukcije keeps them in the URL). */
function listLink(s: SavedSearch): string {
  const p = new URLSearchParams();
  for (const [k, v] of [['q', s.q], ['category', s.category], ['min_price', s.min_price], ['max_price', s.max_price], ['city', s.city]] as const) {
    if (v !== null && v !== '') p.set(k, String(v));
  }
  return `/aukcije?${p.toString()}`;
}

/** /sacuvane-pretrage: the member's saved searches, to open or delete (issue 28). */
export default function SavedSearchesPage() {
  useDocumentTitle(t.title);
  const list = useSavedSearches();
  const del = useDeleteSavedSearch();
  return (
    <div className="page page--narrow saved-searches-page">
      <h1 className="page-title">{t.title}</h1>
      {list.isError ? (
        <Alert kind="error">
          {t.loadFailed}{' '}
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void list.refetch()}>
            {sr.app.retry}
          </button>
        </Alert>
      ) : !list.data ? (
        <LoadingScreen />
      ) : list.data.results.length === 0 ? (
        <EmptyState>{t.empty}</EmptyState>
      ) : (
        <ul className="saved-searches">
          {list.data.results.map((s) => (
            <li key={s.id} className="saved-searches__item card">
              <span className="saved-searches__what">{describe(s)}</span>
              <span className="saved-searches__actions">
                <Link className="btn btn--secondary btn--sm" to={listLink(s)}>
                  {t.show}
                </Link>
                <button type="button" className="btn btn--danger btn--sm" disabled={del.isPending} onClick={() => del.mutate(s.id)}>
                  {t.remove}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
