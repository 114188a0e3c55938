import { useMutation } from '@tanstack/react-query';
import type { ApiBody as RouteBody } from '@shared/api';
import { api } from '../../../lib/api';

/** POST /api/reports/ → `{id, status}` (201 new, 200 the caller's open report on that target). */
export const createReport = (body: RouteBody<'POST /api/reports/'>) => api('POST /api/reports/', { body });

export const useCreateReport = () => useMutation({ mutationFn: createReport });
