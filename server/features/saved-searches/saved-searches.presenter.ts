import type { SavedSearch } from '@shared/schemas/saved-searches';
import type { SavedSearchRow } from './saved-searches.repository';

export function presentSavedSearch(r: SavedSearchRow): SavedSearch {
  return {
    id: r.id,
    q: r.q,
    category: r.category,
    min_price: r.min_price === null ? null : Number(r.min_price),
    max_price: r.max_price === null ? null : Number(r.max_price),
    city: r.city,
    created_at: r.created_at,
  };
}
