import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReportStatus } from '@shared/rules/reports';
import type { ApiBody } from '@shared/api';
import { api } from '../../../lib/api';
import { ADMIN_PAGE_SIZE, adminAuctionsKey } from './admin-auctions';
import { adminUsersKey } from './admin-users';

export const adminReportsKey = ['admin', 'reports'] as const;
export const auditLogKey = ['admin', 'audit-log'] as const;

/** GET /api/admin/reports/?status=&page=&page_size= (status '' = every status). */
export const adminReportsQuery = (p: { status: ReportStatus | ''; page: number }) =>
  queryOptions({
    queryKey: [...adminReportsKey, p] as const,
    queryFn: ({ signal }) => api('GET /api/admin/reports/', { query: { status: p.status, page: p.page, page_size: ADMIN_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });
export const useAdminReports = (p: { status: ReportStatus | ''; page: number }) => useQuery(adminReportsQuery(p));

/** GET /api/admin/audit-log/?page=&page_size=, newest first. */
export const auditLogQuery = (page: number) =>
  queryOptions({
    queryKey: [...auditLogKey, page] as const,
    queryFn: ({ signal }) => api('GET /api/admin/audit-log/', { query: { page, page_size: ADMIN_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });
export const useAuditLog = (page: number) => useQuery(auditLogQuery(page));

/** POST /api/admin/reports/{id}/resolve/ → the report after it; every admin list may have changed. */
export function useResolveReport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number } & ApiBody<'POST /api/admin/reports/:id/resolve/'>) => api('POST /api/admin/reports/:id/resolve/', { params: { id: v.id }, body: { action: v.action, note: v.note } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: adminReportsKey });
      void qc.invalidateQueries({ queryKey: auditLogKey });
      void qc.invalidateQueries({ queryKey: adminUsersKey });
      void qc.invalidateQueries({ queryKey: adminAuctionsKey });
      void qc.invalidateQueries({ queryKey: ['auctions'] });
    },
  });
}
