import { sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import type { DbOrTx } from '../../db/types';
import type { SearchTerm } from '@shared/rules/search';
import type { AuctionsQuery, ListFilter } from './auctions-query';

/**
 * How a page of a search (3+ characters) finds its matches; counts always use `drive`.
 * - `drive`: from the trigram index's matches (`a.id IN (…)`): reads and sorts every match. Best when rare.
 * - `walkIndex`: walks the sort order's index, testing each row against the materialised matches
 *   (`+a.id IN (…)`, no rowid lookup per match) and stops at the page.
 * - `walkScan`: walks the sort order's index, testing each row's own text with `instr` (what a trigram
 *   phrase matches, exactly), and stops at the page: no match set at all. Best for a common term's first pages.
 */
export type SearchPlan = 'drive' | 'walkIndex' | 'walkScan';

/** The filter's search (built once from `q` by searchTerm), or undefined for no search. */
export function filterSearch(f: ListFilter): SearchTerm | undefined {
  return f.search;
}

/**
 * Which trigram index a search reads: the public list's auctions are all in `auctions_open_fts` (listed:
 * active, seller not blocked; migration 1000), the other scopes need every auction (`auctions_fts`, 0840).
 */
function ftsTable(f: ListFilter): 'auctions_open_fts' | 'auctions_fts' {
  return f.scope.kind === 'public' ? 'auctions_open_fts' : 'auctions_fts';
}

/** The trigram tokenizer cannot match fewer than 3 characters. */
const FTS_MIN_CHARS = 3;

/**
 * The search as an FTS5 string (a phrase: in double quotes, inner double quotes doubled; nothing else is
 * special inside), or undefined when the search is too short for trigrams or absent.
 */
export function ftsPhrase(term: SearchTerm | undefined): string | undefined {
  return term !== undefined && [...term.text].length >= FTS_MIN_CHARS ? `"${term.text.replace(/"/g, '""')}"` : undefined;
}

/**
 * Keeps the auctions whose text contains the search, found the way `plan` says. On PostgreSQL every plan is
 * the same `LIKE '%text%'` over the normalised search_text: with 3+ characters the pg_trgm GIN indexes of
 * migrations 0840/1000 serve it (the planner chooses between them and the sort's index by itself), and the
 * semantics are those of SQLite's (the text and the query are normalised in JavaScript alike).
 */
export function whereMatches<O>(q: AuctionsQuery<O>, f: ListFilter, term: SearchTerm, plan: SearchPlan, pg = false): AuctionsQuery<O> {
  if (pg) return q.where(sql<boolean>`a.search_text like ${term.like}`);
  const phrase = ftsPhrase(term);
  if (phrase !== undefined && plan === 'walkScan') return q.where(sql<boolean>`instr(a.search_text, ${term.text}) > 0`);
  if (phrase !== undefined) {
    // Substring match through the trigram index (migration 0840): a phrase of trigrams matches exactly
    // where LIKE '%text%' does, without reading every open auction (docs/performance.md, B3).
    // The public list searches the index of listed auctions only (migration 1000): fewer matches to read.
    const fts = sql.table(ftsTable(f));
    const matches = sql<number>`(select rowid from ${fts} where ${fts} match ${phrase})`;
    return plan === 'walkIndex' ? q.where(sql<number>`+a.id`, 'in', matches) : q.where('a.id', 'in', matches);
  }
  // Trigrams need 3 characters; 1–2 character queries keep the scan.
  return q.where(sql<boolean>`a.search_text like ${term.like} escape '\\'`);
}

/**
 * Costs measured at 100,000 auctions (q=sesir, m = 6,095 matches), per unit: driving reads and sorts every
 * match (~2.5 µs each); a walk steps over about `rows × total / m` index entries before it has the page's
 * `rows` rows, at ~0.1 µs each when testing against materialised matches (which costs ~0.25 µs per match
 * first) and ~1.5 µs each when it reads the row's text. Page 1 of q=sesir: drive 15 ms, walkIndex 1.7–2.7 ms,
 * walkScan 0.2–0.3 ms; its page 50: walkIndex 4 ms, walkScan 33 ms.
 */
export const PLAN_COST_US = { drivePerMatch: 2.5, materialisePerMatch: 0.25, indexStep: 0.1, scanStep: 1.5 };

/** The cheapest plan for a search page that needs its first `rows` rows (a search of 3+ characters). */
export async function chooseSearchPlan(db: DbOrTx, f: ListFilter, rows: number, knownMatches?: number): Promise<SearchPlan> {
  const phrase = ftsPhrase(filterSearch(f));
  // PostgreSQL's planner weighs the trigram index against the sort's index with its own statistics.
  if (phrase === undefined || isPostgres(db)) return 'drive';
  const fts = sql.table(ftsTable(f));
  const matches = knownMatches === undefined ? sql<number>`(select count(*) from ${fts} where ${fts} match ${phrase})` : sql<number>`${knownMatches}`;
  const stats = await sql<{ m: number; total: number | null }>`select ${matches} as m, (select max(id) from auctions) as total`.execute(db);
  const m = Number(stats.rows[0]?.m ?? 0);
  const total = Number(stats.rows[0]?.total ?? 0);
  if (m === 0) return 'drive';
  const steps = (rows * total) / m;
  const c = PLAN_COST_US;
  const cost: Record<SearchPlan, number> = {
    drive: c.drivePerMatch * m,
    walkIndex: c.materialisePerMatch * m + c.indexStep * steps,
    walkScan: c.scanStep * steps,
  };
  return (Object.keys(cost) as SearchPlan[]).reduce((best, p) => (cost[p] < cost[best] ? p : best), 'drive');
}
