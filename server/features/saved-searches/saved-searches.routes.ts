import { Router } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireAuth } from '../../http/auth';
import { parse, parseId } from '../../http/validate';
import { PageQuery } from '@shared/schemas/sales';
import { SavedSearchInput } from '@shared/schemas/saved-searches';
import type { ApiOutput } from '@shared/api';
import { deleteSavedSearch, listSavedSearches, saveSearch } from './saved-searches.service';

/** A member's saved searches (issue 28): save, list (paged), delete. */
export function savedSearchesRoutes(ctx: AppContext): Router {
  const r = Router();

  r.post('/saved-searches/', requireAuth, async (req, res) => {
    const input = parse(SavedSearchInput, req.body);
    res.status(201).json((await saveSearch(ctx, currentUser(req), input)) satisfies ApiOutput<'POST /api/saved-searches/'>);
  });

  r.get('/saved-searches/', requireAuth, async (req, res) => {
    res.json((await listSavedSearches(ctx, currentUser(req), parse(PageQuery, req.query))) satisfies ApiOutput<'GET /api/saved-searches/'>);
  });

  r.delete('/saved-searches/:id/', requireAuth, async (req, res) => {
    await deleteSavedSearch(ctx, currentUser(req), parseId(req.params.id));
    res.status(204).end();
  });

  return r;
}
