import { Router } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireAdmin } from '../../http/auth';
import { parse, parseId } from '../../http/validate';
import type { ApiOutput } from '@shared/api';
import { AdminReportsQuery, ResolveReportInput } from '@shared/schemas/reports';
import { PageQuery } from '@shared/schemas/sales';
import { pageReports, resolveReport } from '../reports/reports.service';
import { pageAuditLog } from '../audit/audit.service';

/** The moderation queue and the audit log (issue 24), admins only (others 403). */
export function adminReportsRoutes(ctx: AppContext): Router {
  const r = Router();

  r.get('/admin/reports/', requireAdmin, async (req, res) => {
    const query = parse(AdminReportsQuery, req.query);
    res.json((await pageReports(ctx, query)) satisfies ApiOutput<'GET /api/admin/reports/'>);
  });

  r.post('/admin/reports/:id/resolve/', requireAdmin, async (req, res) => {
    const id = parseId(req.params.id);
    const input = parse(ResolveReportInput, req.body);
    res.json((await resolveReport(ctx, currentUser(req), id, input)) satisfies ApiOutput<'POST /api/admin/reports/:id/resolve/'>);
  });

  r.get('/admin/audit-log/', requireAdmin, async (req, res) => {
    const query = parse(PageQuery, req.query);
    res.json((await pageAuditLog(ctx, query)) satisfies ApiOutput<'GET /api/admin/audit-log/'>);
  });

  return r;
}
