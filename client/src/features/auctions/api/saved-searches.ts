import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { SavedSearchForm } from '@shared/schemas/saved-searches';

export const savedSearchesKey = ['saved-searches'] as const;

/** GET /api/saved-searches/ (a member keeps at most 20: one page of 20 holds them all). */
export const savedSearchesQuery = () =>
  queryOptions({ queryKey: savedSearchesKey, queryFn: ({ signal }) => api('GET /api/saved-searches/', { query: { page: 1, page_size: 20 }, signal }) });

export const useSavedSearches = () => useQuery(savedSearchesQuery());

/** POST /api/saved-searches/ */
export const useSaveSearch = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SavedSearchForm) => api('POST /api/saved-searches/', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: savedSearchesKey }),
  });
};

/** DELETE /api/saved-searches/{id}/ */
export const useDeleteSavedSearch = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api('DELETE /api/saved-searches/:id/', { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: savedSearchesKey }),
  });
};
