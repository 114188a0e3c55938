import { Router } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireActiveUser } from '../../http/auth';
import { parse } from '../../http/validate';
import { CreateReportInput } from '@shared/schemas/reports';
import type { ApiOutput } from '@shared/api';
import { fileReport } from './reports.service';

/** POST /api/reports/ (issue 24): a logged-in, verified member reports an auction, a comment or a member. */
export function reportsRoutes(ctx: AppContext): Router {
  const r = Router();

  r.post('/reports/', requireActiveUser, async (req, res) => {
    const input = parse(CreateReportInput, req.body);
    const { report, created } = await fileReport(ctx, currentUser(req), input);
    res.status(created ? 201 : 200).json(report satisfies ApiOutput<'POST /api/reports/'>);
  });

  return r;
}
