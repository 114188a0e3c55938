import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The page of a paged list in the URL (`?page=`, absent on page 1), so a link or a reload opens the same page.
 * `key` names the parameter when one screen has two lists.
 */
export function usePageParam(key = 'page'): [number, (page: number) => void] {
  const [search, setSearch] = useSearchParams();
  const raw = Number.parseInt(search.get(key) ?? '1', 10);
  const page = Number.isFinite(raw) && raw >= 1 ? raw : 1;
  const setPage = useCallback(
    (next: number) => {
      setSearch((prev) => {
        const params = new URLSearchParams(prev);
        if (next > 1) params.set(key, String(next));
        else params.delete(key);
        return params;
      });
    },
    [key, setSearch],
  );
  return [page, setPage];
}
