import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { SORTS, type Sort } from '@shared/rules/sorts';
import type { ListParams } from '../api/auctions-list';

/** The price and city filters (issue 28): kept in the URL and sent as they are. */
export const EXTRA_FILTERS = ['min_price', 'max_price', 'city'] as const;

const isSort = (v: string | null): v is Sort => !!v && (SORTS as readonly string[]).includes(v);

/** The list state in the URL (?page=&q=&category=&sort=), so a shared link opens the same page. */
export function useListParams(): [ListParams, (patch: Partial<ListParams>, opts?: { replace?: boolean }) => void] {
  const [search, setSearch] = useSearchParams();
  const params = useMemo<ListParams>(() => readParams(search), [search]);

  const update = useCallback(
    (patch: Partial<ListParams>, opts?: { replace?: boolean }) => {
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          const merged = { ...readParams(prev), ...patch };
          // A new search, category or sort starts again at page 1.
          if (!('page' in patch)) merged.page = 1;
          setOrDelete(next, 'page', merged.page > 1 ? String(merged.page) : '');
          setOrDelete(next, 'q', merged.q.trim() ? merged.q : '');
          setOrDelete(next, 'category', merged.category);
          setOrDelete(next, 'sort', merged.sort !== 'endDateAsc' ? merged.sort : '');
          for (const k of EXTRA_FILTERS) setOrDelete(next, k, merged[k] ?? '');
          return next;
        },
        { replace: opts?.replace ?? false },
      );
    },
    [setSearch],
  );
  return [params, update];
}

function readParams(s: URLSearchParams): ListParams {
  const page = Number.parseInt(s.get('page') ?? '1', 10);
  const sort = s.get('sort');
  return {
    page: Number.isFinite(page) && page >= 1 ? page : 1,
    q: s.get('q') ?? '',
    sort: isSort(sort) ? sort : 'endDateAsc',
    category: s.get('category') ?? '',
    ...(Object.fromEntries(EXTRA_FILTERS.map((k) => [k, s.get(k) ?? ''])) as Pick<ListParams, (typeof EXTRA_FILTERS)[number]>),
  };
}

function setOrDelete(s: URLSearchParams, key: string, value: string) {
  if (value) s.set(key, value);
  else s.delete(key);
}
