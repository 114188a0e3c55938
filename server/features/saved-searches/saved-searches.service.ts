import type { AppContext } from '../../context';
import type { User } from '../../db/types';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import { ALL_AUCTIONS } from '@shared/categories';
import { normaliseForSearch } from '@shared/rules/search';
import type { PageQuery } from '@shared/schemas/sales';
import type { SavedSearch, SavedSearchInput } from '@shared/schemas/saved-searches';
import type { Paged } from '@shared/schemas/auctions';
import { savedSearchTexts } from '@shared/texts/saved-searches';
import { countOwn, deleteOwn, insertSavedSearch, listOwn, lockMember } from './saved-searches.repository';
import { presentSavedSearch } from './saved-searches.presenter';
import { pageOf } from '../../lib/paging';

/** How many searches a member may keep. */
export const SAVED_SEARCHES_MAX = 20;

const blank = (v: string | undefined) => (v === undefined || v === '' ? null : v);

/**
 * Saves a search: the list's criteria as given (`all-auctions` is no category), with `q` and `city` normalised for
 * matching. At least one criterion must remain; at most SAVED_SEARCHES_MAX per member (under the member's lock).
 */
export async function saveSearch(ctx: AppContext, user: User, input: SavedSearchInput): Promise<SavedSearch> {
  const q = blank(input.q);
  const qText = q ? normaliseForSearch(q) || null : null;
  const city = blank(input.city);
  const cityNorm = city ? normaliseForSearch(city) || null : null;
  const category = input.category && input.category !== ALL_AUCTIONS ? input.category : null;
  const values = {
    user_id: user.id,
    q: qText ? q : null,
    q_text: qText,
    category,
    min_price: input.min_price ?? null,
    max_price: input.max_price ?? null,
    city: cityNorm ? city : null,
    city_norm: cityNorm,
    created_at: isoAt(Date.now()),
  };
  if (!values.q_text && !category && values.min_price === null && values.max_price === null && !cityNorm) {
    throw AppError.badRequest(savedSearchTexts.noCriteria, undefined, 'no_criteria');
  }
  const row = await ctx.db.transaction().execute(async (tx) => {
    await lockMember(tx, user.id);
    if ((await countOwn(tx, user.id)) >= SAVED_SEARCHES_MAX) throw AppError.badRequest(savedSearchTexts.tooMany, undefined, 'too_many');
    return insertSavedSearch(tx, values);
  });
  return presentSavedSearch(row);
}

/** The member's saved searches, newest first, paged like the sales lists. */
export async function listSavedSearches(ctx: AppContext, user: User, query: PageQuery): Promise<Paged<SavedSearch>> {
  const size = query.page_size;
  const [count, rows] = await Promise.all([countOwn(ctx.db, user.id), listOwn(ctx.db, user.id, size, (query.page - 1) * size)]);
  return pageOf(count, query.page, size, rows.map(presentSavedSearch));
}

/** Deletes one of the member's own; someone else's (or none) is 404. */
export async function deleteSavedSearch(ctx: AppContext, user: User, id: number): Promise<void> {
  if (!(await deleteOwn(ctx.db, user.id, id))) throw AppError.notFound(savedSearchTexts.notFound);
}

