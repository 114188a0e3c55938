import { sql, type ExpressionBuilder, type Insertable } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { precompiled } from '../../db/precompiled';
import type { Auction, AuctionsTable, Database, DbOrTx } from '../../db/types';
import type { AdminAuctionSort } from '@shared/rules/admin';
import type { AuctionOutcome } from '@shared/rules/buy-now';
import type { SearchTerm } from '@shared/rules/search';
import { chooseSearchPlan, filterSearch, ftsPhrase, PLAN_COST_US, whereMatches, type SearchPlan } from './auctions-search.repository';

// A list page is read by one of the search plans; the tests choose and compare them through the list module.
export { chooseSearchPlan, type SearchPlan };

/** What a card needs: the auction's columns plus its first image (card size) from one subselect; all images come from imagesForAuctions. */
export interface CardRow {
  id: number;
  title: string;
  description: string;
  current_price: number;
  end_date: string;
  category: string;
  city: string;
  seller_id: number;
  bid_count: number;
  status: 'active' | 'ended';
  first_image_path: string | null;
  buy_now_price: number | null;
  /** Read for every card, shown only to the seller (auctions.presenter.ts). */
  reserve_price: number | null;
  outcome: AuctionOutcome | null;
  /** The auction that relisted this one (issue 26), from the unique relisted_from index. */
  relisted_as: number | null;
}

export interface DetailRow extends CardRow {
  relisted_from: number | null;
  relist_count: number;
  phone_number: string;
  starting_price: number;
  winner_id: number | null;
  created_at: string;
  seller_name: string;
  /** Users watching it (counted on each read). */
  watch_count: number;
  /** Whether the viewer watches it (0/1 on SQLite, a boolean on PostgreSQL; always falsy for a visitor). */
  watched: number | boolean;
  /** Whether the seller blocked the viewer (issue 24; 0/1 or a boolean as `watched`; falsy for a visitor). */
  viewer_blocked: number | boolean;
  /** The seller's positive and negative ratings (issue 23), counted on each read from the (rated_id, value) index. */
  seller_positive: number;
  seller_negative: number;
  /** The auction's seq, read in the same statement: it describes exactly this row (a join's snapshot). */
  seq: number;
}

import { hasPriceOrCity, type AuctionsQuery, type ListFilter, type ListScope } from './auctions-query';

// Declared beside the search plans' module, which reads them too (no import circle).
export type { AuctionsQuery, ListFilter, ListScope };

/**
 * `endDateRange`: whether the public filter's `end_date > now` may be the way into an index. Only a list in
 * end-date order wants that; any other order tests it as `+a.end_date` (no index range), so SQLite walks the
 * index ordered like the list (migration 2026-11-24-0100) instead of taking the end-date range as the more
 * selective-looking way in and sorting every open auction, which is what it chooses without statistics.
 * `priceRange` likewise for a price filter (issue 28): only a price-sorted list (or a count) takes the price range
 * as its way into the (…, current_price, id, …) index; an end-date list tests `+a.current_price` on its walk.
 */
export function applyFilter<O>(db: DbOrTx, q: AuctionsQuery<O>, f: ListFilter, plan: SearchPlan = 'drive', endDateRange = true, priceRange = true): AuctionsQuery<O> {
  const s = f.scope;
  const pg = isPostgres(db);
  if (s.kind === 'public') {
    q = q
      .where('a.status', '=', 'active')
      // PostgreSQL has no unary + on text, and its planner needs no such hint.
      .where(endDateRange || pg ? sql.ref('a.end_date') : sql`+a.end_date`, '>', f.now)
      // Uncorrelated NOT IN: SQLite reads the (few) blocked sellers once instead of probing users for
      // every open auction; the count at 100,000 auctions takes ~2.5x less (docs/performance.md, B3).
      .where('a.seller_id', 'not in', (eb) => eb.selectFrom('users as u').select('u.id').where('u.blocked_at', 'is not', null));
  } else if (s.kind === 'seller') {
    q = q.where('a.seller_id', '=', s.userId);
  } else if (s.kind === 'bidder') {
    q = q.where('a.id', 'in', (eb) => eb.selectFrom('bids as b').select('b.auction_id').where('b.bidder_id', '=', s.userId));
  } else if (s.kind === 'member') {
    q = q.where('a.seller_id', '=', s.userId).where('a.status', '=', 'active').where('a.end_date', '>', f.now);
  } else if (s.kind === 'watcher') {
    q = q.where('a.id', 'in', (eb) => eb.selectFrom('watchlist as w').select('w.auction_id').where('w.user_id', '=', s.userId));
  } else if (s.kind === 'all' && s.status === 'active') {
    q = q.where('a.status', '=', 'active').where('a.end_date', '>', f.now);
  } else if (s.kind === 'all' && s.status === 'ended') {
    q = q.where((eb) => eb.or([eb('a.status', '=', 'ended'), eb('a.end_date', '<=', f.now)]));
  }
  if (f.category) q = q.where('a.category', '=', f.category);
  q = applyPriceAndCity(q, f, priceRange || pg);
  const term = filterSearch(f);
  return term ? whereMatches(q, f, term, plan, pg) : q;
}

/** The price and city filters (issue 28); the city is an equality of the city indexes (migration 2026-11-26-0400). */
function applyPriceAndCity<O>(q: AuctionsQuery<O>, f: ListFilter, priceRange: boolean): AuctionsQuery<O> {
  if (f.city !== undefined) q = q.where('a.city_norm', '=', f.city);
  const price = priceRange ? sql.ref('a.current_price') : sql`+a.current_price`;
  if (f.minPrice !== undefined) q = q.where(price, '>=', f.minPrice);
  if (f.maxPrice !== undefined) q = q.where(price, '<=', f.maxPrice);
  return q;
}

/**
 * Whether the list with filter `f` shows auction `id` now: the list's own predicate (applyFilter) on one row, so a
 * saved search matches exactly what its list would show (issue 28). `walkScan` tests the row's own text.
 */
export async function listShows(db: DbOrTx, id: number, f: ListFilter): Promise<boolean> {
  const row = await applyFilter(db, db.selectFrom('auctions as a').select('a.id').where('a.id', '=', id), f, 'walkScan').executeTakeFirst();
  return row !== undefined;
}

function cardQuery(db: DbOrTx) {
  return db.selectFrom('auctions as a').select(cardColumns);
}

/** A card's columns of `a`, its first image included. */
function cardColumns(eb: ExpressionBuilder<Database & { a: AuctionsTable }, 'a'>) {
  return [
    'a.id',
    'a.title',
    'a.description',
    'a.current_price',
    'a.end_date',
    'a.category',
    'a.city',
    'a.seller_id',
    'a.bid_count',
    'a.status',
    'a.buy_now_price',
    'a.reserve_price',
    'a.outcome',
    eb
      .selectFrom('auction_images as i')
      .select('i.card_path')
      .whereRef('i.auction_id', '=', 'a.id')
      .orderBy('i.position')
      .orderBy('i.id')
      .limit(1)
      .as('first_image_path'),
    eb.selectFrom('auctions as r').select('r.id').whereRef('r.relisted_from', '=', 'a.id').as('relisted_as'),
  ] as const;
}

/** The list sorts, plus the admin's bid-count sorts (no index: an admin's list sorts its matches). */
const SORT_COLUMNS: Record<AdminAuctionSort, [column: 'a.end_date' | 'a.current_price' | 'a.bid_count', dir: 'asc' | 'desc']> = {
  endDateAsc: ['a.end_date', 'asc'],
  endDateDesc: ['a.end_date', 'desc'],
  priceAsc: ['a.current_price', 'asc'],
  priceDesc: ['a.current_price', 'desc'],
  bidsDesc: ['a.bid_count', 'desc'],
  bidsAsc: ['a.bid_count', 'asc'],
};

/** One page of cards: one query, first images included (no N+1; a search of 3+ characters may add one small query, see chooseSearchPlan). Ties break on id for stable paging. */
export async function listCards(
  db: DbOrTx,
  f: ListFilter,
  sort: AdminAuctionSort,
  limit: number,
  offset: number,
  /** The count of this public list, when already known: the search plan needs no count of its own. */
  knownCount?: number,
): Promise<CardRow[]> {
  const matches = f.scope.kind === 'public' && !f.category && !hasPriceOrCity(f) ? knownCount : undefined;
  // The walking plans walk a sort order's index; bid count has none, so its search drives.
  const plan = SORT_COLUMNS[sort][0] === 'a.bid_count' ? 'drive' : await chooseSearchPlan(db, f, limit + offset, matches);
  const byPrice = await readsPriceRange(db, f, sort, limit + offset, knownCount);
  return listCardsByPlan(db, f, sort, limit, offset, plan, byPrice);
}

/**
 * Whether reading the `m` auctions of a price range from the price index and sorting them (~2.5 µs each) is
 * cheaper than walking the end-date index until `rows` of them turn up: about `rows × total / m` steps, each
 * reading a row's price (~1.5 µs; PLAN_COST_US). A narrow range (1 % of 20,000 auctions: 6 ms walked, B3 SQL)
 * is read; a wide one or an early page walks. No match at all: the walk would step over every open auction.
 */
export function priceRangeReadWins(m: number, rows: number, total: number): boolean {
  return m === 0 || PLAN_COST_US.drivePerMatch * m < (PLAN_COST_US.scanStep * rows * total) / m;
}

/**
 * For a public end-date page with a price range and nothing else (SQLite; PostgreSQL's planner has its own
 * statistics), whether priceRangeReadWins for its known count. A city or category walks its own, smaller index.
 */
async function readsPriceRange(db: DbOrTx, f: ListFilter, sort: AdminAuctionSort, rows: number, knownCount: number | undefined): Promise<boolean> {
  const priced = f.minPrice !== undefined || f.maxPrice !== undefined;
  if (!priced || knownCount === undefined || isPostgres(db) || f.scope.kind !== 'public') return false;
  if (SORT_COLUMNS[sort][0] !== 'a.end_date' || f.city !== undefined || f.category || filterSearch(f)) return false;
  const total = await db.selectFrom('auctions').select((eb) => eb.fn.max('id').as('total')).executeTakeFirst();
  return priceRangeReadWins(knownCount, rows, Number(total?.total ?? 0));
}

/**
 * A page of cards with the given search plan (all plans give the same rows; tests compare them). `byPrice`: an
 * end-date page read from its price range and sorted (readsPriceRange) instead of walking the end-date index.
 */
export async function listCardsByPlan(
  db: DbOrTx,
  f: ListFilter,
  sort: AdminAuctionSort,
  limit: number,
  offset: number,
  plan: SearchPlan,
  byPrice = false,
): Promise<CardRow[]> {
  const [col, dir] = SORT_COLUMNS[sort];
  // `+a.end_date`: with statistics SQLite would rather walk the end-date index for the order than read the range.
  const rows = await applyFilter(db, cardQuery(db), f, plan, col === 'a.end_date' && !byPrice, col === 'a.current_price' || byPrice)
    .orderBy(byPrice ? sql`+a.end_date` : col, dir)
    .orderBy('a.id', dir)
    .limit(limit)
    .offset(offset)
    .execute();
  return rows as CardRow[];
}

export async function countCards(db: DbOrTx, f: ListFilter): Promise<number> {
  const term = filterSearch(f);
  const phrase = ftsPhrase(term);
  // PostgreSQL keeps the per-category counts but no index of the listed auctions' matches to count: its
  // search counts are counted (through the trigram index).
  const listedSearch = phrase !== undefined && !f.category && f.city === undefined && !isPostgres(db);
  const priced = f.minPrice !== undefined || f.maxPrice !== undefined;
  // The per-city counts are SQLite's only (migration 2026-11-26-0500 says why): PostgreSQL counts a city's rows.
  const cityCounted = f.city === undefined || !isPostgres(db);
  if (f.scope.kind === 'public' && !priced && cityCounted && (!term || listedSearch)) return countListed(db, f, term, phrase);
  // A price range is the count's way in (the price index), not every open auction's end date.
  const count = db.selectFrom('auctions as a').select((eb) => eb.fn.countAll<number>().as('n'));
  const row = await applyFilter(db, count, f, 'drive', !priced || f.city !== undefined).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** What the database keeps count of for a filter without a search: per category, or per city and category. */
function listedCount(f: ListFilter) {
  const category = f.category ? sql` and category = ${f.category}` : sql``;
  if (f.city !== undefined) return sql<number>`(select coalesce(sum(n), 0) from open_auction_city_counts where city_norm = ${f.city}${category})`;
  return f.category
    ? sql<number>`(select coalesce(sum(n), 0) from open_auction_counts where category = ${f.category})`
    : sql<number>`(select coalesce(sum(n), 0) from open_auction_counts)`;
}

/**
 * The public count without counting rows (migrations 1000 and 2026-11-26-0500): the listed auctions the
 * database keeps count of (per category in open_auction_counts, per city and category in
 * open_auction_city_counts, or the matches in auctions_open_fts), minus those listed but already past end_date
 * and not yet closed (a range of the (status, end_date) index, normally empty). Exact, and O(categories) or
 * O(matches in the index) instead of O(open auctions). A search within a category or a city (the index knows
 * neither), 1–2 character searches and price ranges use the general count.
 */
async function countListed(db: DbOrTx, f: ListFilter, term: SearchTerm | undefined, phrase: string | undefined): Promise<number> {
  const listed = phrase !== undefined ? sql<number>`(select count(*) from auctions_open_fts where auctions_open_fts match ${phrase})` : listedCount(f);
  let ended = db
    .selectFrom('auctions as a')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('a.status', '=', 'active')
    .where('a.end_date', '<=', f.now)
    .where('a.seller_id', 'not in', (eb) => eb.selectFrom('users as u').select('u.id').where('u.blocked_at', 'is not', null));
  if (f.category) ended = ended.where('a.category', '=', f.category);
  if (f.city !== undefined) ended = ended.where('a.city_norm', '=', f.city);
  // The few past-end rows test their own text (what the trigram phrase matches, exactly): a per-row probe of
  // the trigram index costs ~0.3 ms a row, so a closer running late would have made every search count slow.
  if (term !== undefined && phrase !== undefined) ended = ended.where(sql<boolean>`instr(a.search_text, ${term.text}) > 0`);
  const row = await db.selectNoFrom(sql<number>`${listed} - (${ended})`.as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Popular auctions: open auctions of unblocked sellers ranked by the number of bids placed since `since`
 * (the last 24 h), then by total bid_count, then by the soonest end, then id.
 * Three bounded steps give the same order as one big query without counting bids for every open auction:
 * 1. auctions with recent bids, counted from the bids of the window alone (index on bids.created_at);
 * 2. if fewer than `limit`, the other auctions with bids, by bid_count;
 * 3. then auctions without bids, soonest end first, straight from the index.
 */
export async function listPopular(db: DbOrTx, now: string, since: string, limit: number): Promise<CardRow[]> {
  const open: ListFilter = { scope: { kind: 'public' }, now };
  const out: CardRow[] = [];
  // The bids of the window drive (CROSS JOIN keeps them the outer loop): each of their auctions is one rowid
  // lookup. As an inner join SQLite would walk every open auction and look each one up in the window's counts.
  const recentBids = db
    .selectFrom('bids as rb')
    .select([sql<number>`+rb.auction_id`.as('auction_id'), (e) => e.fn.countAll<number>().as('n')])
    .where('rb.created_at', '>', since)
    // Grouping on an expression keeps SQLite on the created_at index (the window) instead of
    // walking every bid in auction order to avoid a sort.
    .groupBy(sql`+rb.auction_id`)
    .as('r');
  const recentQuery = db
    .selectFrom(recentBids)
    .crossJoin('auctions as a')
    .whereRef('a.id', '=', 'r.auction_id')
    .select(cardColumns)
    .select('r.n');
  const recent = await applyFilter(db, recentQuery as unknown as AuctionsQuery<CardRow & { n: number }>, open, 'drive', false)
    .orderBy('n', 'desc')
    .orderBy('a.bid_count', 'desc')
    .orderBy('a.end_date', 'asc')
    .orderBy('a.id', 'asc')
    .limit(limit)
    .execute();
  out.push(...(recent as unknown as CardRow[]));
  if (out.length < limit) {
    const seen = out.map((r) => r.id);
    // Both steps walk (status, bid_count DESC, end_date, id): most bids first, then soonest end, no sort.
    let q = applyFilter(db, cardQuery(db), open, 'drive', false).where('a.bid_count', '>', 0);
    if (seen.length) q = q.where('a.id', 'not in', seen);
    const more = await q.orderBy('a.bid_count', 'desc').orderBy('a.end_date', 'asc').orderBy('a.id', 'asc').limit(limit - out.length).execute();
    out.push(...(more as CardRow[]));
  }
  if (out.length < limit) {
    const rest = await applyFilter(db, cardQuery(db), open, 'drive', false)
      .where('a.bid_count', '=', 0)
      .orderBy('a.end_date', 'asc')
      .orderBy('a.id', 'asc')
      .limit(limit - out.length)
      .execute();
    out.push(...(rest as CardRow[]));
  }
  return out;
}

/** The detail row; its watch count and whether `viewerId` (none: a visitor) watches it come from the same statement. */
export async function findDetail(db: DbOrTx, id: number, viewerId?: number): Promise<DetailRow | undefined> {
  const row = await cardQuery(db)
    .innerJoin('users as s', 's.id', 'a.seller_id')
    .select(['a.phone_number', 'a.starting_price', 'a.winner_id', 'a.created_at', 'a.relisted_from', 'a.relist_count', 'a.seq', 's.first_name as seller_name'])
    .select((eb) => [
      eb
        .selectFrom('watchlist as w')
        .select((w) => w.fn.countAll<number>().as('n'))
        .whereRef('w.auction_id', '=', 'a.id')
        .as('watch_count'),
      viewerId === undefined
        ? sql<number>`0`.as('watched')
        : eb.exists(eb.selectFrom('watchlist as v').select('v.auction_id').where('v.user_id', '=', viewerId).whereRef('v.auction_id', '=', 'a.id')).as('watched'),
      viewerId === undefined
        ? sql<number>`0`.as('viewer_blocked')
        : eb.exists(eb.selectFrom('member_blocks as mb').select('mb.blocked_id').whereRef('mb.blocker_id', '=', 'a.seller_id').where('mb.blocked_id', '=', viewerId)).as('viewer_blocked'),
      ...(['positive', 'negative'] as const).map((value) =>
        eb
          .selectFrom('ratings as r')
          .select((r) => r.fn.countAll<number>().as('n'))
          .whereRef('r.rated_id', '=', 'a.seller_id')
          .where('r.value', '=', value)
          .as(`seller_${value}`),
      ),
    ])
    .where('a.id', '=', id)
    .executeTakeFirst();
  return row as DetailRow | undefined;
}

const auctionById = precompiled((db: DbOrTx, p: { id: number }) => db.selectFrom('auctions').selectAll().where('id', '=', p.id));

/** The whole auction row. Read for every accepted bid inside its transaction, so it is built and compiled once. */
export async function findAuction(db: DbOrTx, id: number): Promise<Auction | undefined> {
  return (await auctionById(db, { id }))[0];
}

/** What a shared link's preview shows: the auction's text and its first image's large file, if any. */
export async function findShareRow(
  db: DbOrTx,
  id: number,
): Promise<{ id: number; title: string; description: string; first_large_path: string | null } | undefined> {
  const row = await db.selectFrom('auctions').select(['id', 'title', 'description']).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const img = await db
    .selectFrom('auction_images')
    .select(['large_path'])
    .where('auction_id', '=', id)
    .orderBy('position', 'asc')
    .orderBy('id', 'asc')
    .executeTakeFirst();
  return { ...row, first_large_path: img?.large_path ?? null };
}

export async function findSeller(db: DbOrTx, auctionId: number) {
  return db
    .selectFrom('auctions as a')
    .innerJoin('users as u', 'u.id', 'a.seller_id')
    .select(['u.id', 'u.first_name'])
    .where('a.id', '=', auctionId)
    .executeTakeFirst();
}

export async function insertAuction(db: DbOrTx, values: Insertable<AuctionsTable>): Promise<number> {
  const row = await db.insertInto('auctions').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The id of the auction that relists `id`, if one does (issue 26). */
export async function findRelistOf(db: DbOrTx, id: number): Promise<number | undefined> {
  const row = await db.selectFrom('auctions').select('id').where('relisted_from', '=', id).executeTakeFirst();
  return row?.id;
}

/** The seller's fields of an auction an edit writes (issue 26): only those given change. */
export type AuctionEdit = Partial<Pick<AuctionsTable, 'title' | 'description' | 'category' | 'city' | 'phone_number' | 'search_text'>> & {
  city_norm?: string;
  starting_price?: number;
  current_price?: number;
  buy_now_price?: number | null;
  reserve_price?: number | null;
};

/**
 * Writes an edit and takes the next seq in the same statement; only while the auction is still without bids
 * (the caller holds its lock and has checked, this keeps the rule in the statement as well). Returns the new seq.
 */
export async function updateAuction(db: DbOrTx, id: number, edit: AuctionEdit): Promise<number | undefined> {
  const row = await db
    .updateTable('auctions')
    .set((eb) => ({ ...edit, seq: eb('seq', '+', 1) }))
    .where('id', '=', id)
    .where('bid_count', '=', 0)
    .returning('seq')
    .executeTakeFirst();
  return row?.seq;
}

/**
 * Deletes an auction. With `onlyWithoutBids` the check and the delete are one statement, so a bid that
 * lands in between cannot be deleted with it. Returns whether a row was deleted.
 */
export async function deleteAuction(db: DbOrTx, id: number, onlyWithoutBids: boolean): Promise<boolean> {
  let q = db.deleteFrom('auctions').where('id', '=', id);
  if (onlyWithoutBids) q = q.where('bid_count', '=', 0);
  const res = await q.executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
