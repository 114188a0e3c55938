/**
 * Issue 11: a database grown through the API has no statistics, and without them SQLite sorted every open
 * auction in a temporary B-tree for a price-sorted page (~250 ms at 20,000 auctions). The public lists'
 * plans must not depend on statistics: on a fresh database filled through the services, every public list
 * without `q` (every sort, first and deep pages, the unpaged list, every category and 'all-auctions'), its
 * count and the popular list are checked with EXPLAIN QUERY PLAN of the exact statements the service runs,
 * before any statistics exist and again after `PRAGMA optimize` and after a full ANALYZE: no temporary
 * B-tree, and no walk over every open auction (each list walks an index ordered like it, with its category
 * as an equality). A search may sort its own matches (the rare-term `drive` plan); its walking plans (a
 * common term) are held to the same rule. The PostgreSQL counterpart is list-plans-pg.test.ts.
 */
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppContext } from '../../../server/context';
import type { Database, User } from '../../../server/db/types';
import { listCardsByPlan, priceRangeReadWins, type ListFilter } from '../../../server/features/auctions/auctions.repository';
import { createAuction, listAuctions, listPopular } from '../../../server/features/auctions/auctions.service';
import { placeBid } from '../../../server/features/bids/bids.service';
import { ALL_AUCTIONS, CATEGORY_VALUES } from '@shared/categories';
import { searchTerm } from '@shared/rules/search';
import { CreateAuctionInput, ListQuery, SORTS, type Sort } from '@shared/schemas/auctions';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser } from '../../support/factories';
import { describeSqliteOnly, onPostgres } from '../../support/pg';

const AUCTIONS = 300;
let srv: TestServer;
let sellers: User[];

beforeAll(async () => {
  if (onPostgres) return;
  srv = await startTestServer();
  const ctx = srv.ctx;
  sellers = await Promise.all([0, 1, 2, 3].map(() => createUser(ctx)));
  await createUser(ctx, { blocked: true });
  for (let i = 0; i < AUCTIONS; i++) {
    const input = CreateAuctionInput.parse({
      title: `Predmet ${i}`,
      description: `Opis predmeta ${i}`,
      current_price: 100 + ((i * 7919) % 5000),
      auction_duration: [1, 3, 4, 7][i % 4],
      city: ['Beograd', 'Niš', 'Novi Sad', 'Kragujevac'][i % 4],
      phone_number: '0641234567',
      category: CATEGORY_VALUES[i % CATEGORY_VALUES.length],
    });
    await createAuction(ctx, sellers[i % sellers.length], input);
  }
  // A few bids, so the popular list has auctions with recent bids as well as without.
  const bidder = await createUser(ctx);
  for (const id of [3, 5, 8]) await placeBid(ctx, bidder, { auction_item_id: id, amount: 100_000 });
}, 60_000);

afterAll(async () => {
  await srv?.close();
});

interface Captured {
  sql: string;
  parameters: readonly unknown[];
}

/** Runs `fn` against the app's own connection with every statement recorded as it is executed. */
async function capture(fn: (ctx: AppContext) => Promise<unknown>): Promise<Captured[]> {
  const out: Captured[] = [];
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: srv.ctx.sqlite }),
    log: (e) => void out.push({ sql: e.query.sql, parameters: e.query.parameters }),
  });
  await fn({ ...srv.ctx, db });
  return out;
}

const planOf = (q: Captured): string[] =>
  (srv.ctx.sqlite.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.parameters as unknown[])) as { detail: string }[]).map((r) => r.detail);

/** The plan line that reads the auctions table `a`. */
const auctionsLine = (plan: string[]) => plan.filter((l) => /^(SCAN|SEARCH) a\b/.test(l));

const SORT_COLUMN: Record<Sort, string> = { endDateAsc: 'end_date', endDateDesc: 'end_date', priceAsc: 'current_price', priceDesc: 'current_price' };

/** Columns of an index, in order, its trailing rowid included (as `id`, the rowid's alias). */
const indexColumns = (name: string) =>
  (srv.ctx.sqlite.prepare(`PRAGMA index_xinfo(${JSON.stringify(name)})`).all() as { cid: number; name: string | null }[]).map((c) => (c.cid === -1 ? 'id' : c.name));

const CATEGORIES: (string | undefined)[] = [undefined, ALL_AUCTIONS, ...CATEGORY_VALUES];
const PAGES: (number | undefined)[] = [1, 2, 14, undefined];

/** The cards' batched images statement (one per page, images.repository.ts imagesForAuctions). */
const isImages = (q: Captured) => /^select [^(]* from "auction_images"/.test(q.sql);

/** Every problem found in the plans of every public list (empty when all plans are fixed). */
async function problems(): Promise<string[]> {
  const found: string[] = [];
  const note = (what: string, q: Captured, plan: string[]) => found.push(`${what}\n  ${q.sql.slice(0, 160)}\n  ${plan.join('\n  ')}`);
  for (const sort of SORTS) {
    for (const category of CATEGORIES) {
      for (const page of PAGES) {
        const query = ListQuery.parse({ sort, page: page === undefined ? undefined : String(page), ...(category ? { category } : {}) });
        const statements = await capture((ctx) => listAuctions(ctx, { kind: 'public' }, query));
        const oneCategory = category !== undefined && category !== ALL_AUCTIONS;
        const where = `${sort} category=${category ?? '-'} page=${page ?? 'plain'}`;
        // The cards' images come from one batched statement of their own (auction_images), checked below too.
        const list = statements.filter((s) => s.sql.includes('order by') && !isImages(s));
        const counts = statements.filter((s) => !s.sql.includes('order by'));
        expect(list, where).toHaveLength(1);
        expect(counts.length, where).toBe(page === undefined ? 0 : 1);
        for (const q of statements) {
          const plan = planOf(q);
          if (plan.some((l) => l.includes('TEMP B-TREE'))) note(`${where}: sorts in a temporary B-tree`, q, plan);
          const reads = auctionsLine(plan);
          for (const l of reads) {
            if (!l.startsWith('SEARCH a USING')) note(`${where}: scans the auctions table`, q, plan);
            if (oneCategory && !l.includes('category=?')) note(`${where}: category not an index equality`, q, plan);
          }
          if (counts.includes(q) && !reads.every((l) => l.includes('end_date<?'))) note(`${where}: count reads more than the past-end range`, q, plan);
        }
        // The list walks an index ordered like the sort: its equalities, then the sort column, then id.
        const [line] = auctionsLine(planOf(list[0]));
        const m = /USING (?:COVERING )?INDEX (\S+) \((.*)\)/.exec(line ?? '');
        if (!m) {
          note(`${where}: list reads auctions without an index`, list[0], planOf(list[0]));
          continue;
        }
        const equalities = m[2].split(' AND ').filter((c) => c.endsWith('=?')).length;
        const cols = indexColumns(m[1]);
        if (cols[equalities] !== SORT_COLUMN[sort] || cols[equalities + 1] !== 'id') note(`${where}: index ${m[1]} (${cols.join(', ')}) not ordered like the sort`, list[0], planOf(list[0]));
      }
    }
  }
  found.push(...(await filteredProblems()));
  // A search's walking plans (a common term's pages) walk the sort's index and stop at the page; only the
  // `drive` plan (a rare term) reads and sorts its own matches.
  for (const sort of SORTS) {
    for (const category of [undefined, CATEGORY_VALUES[2]]) {
      for (const plan of ['walkIndex', 'walkScan'] as const) {
        const f: ListFilter = { scope: { kind: 'public' }, now: new Date().toISOString(), category, search: searchTerm('predmet') };
        const [q] = await capture((ctx) => listCardsByPlan(ctx.db, f, sort, 20, 20, plan));
        const steps = planOf(q);
        const [line] = auctionsLine(steps);
        const where = `search ${plan} ${sort} category=${category ?? '-'}`;
        if (steps.some((l) => l.includes('TEMP B-TREE'))) note(`${where}: sorts in a temporary B-tree`, q, steps);
        if (!line?.startsWith('SEARCH a USING') || (category && !line.includes('category=?'))) note(`${where}: does not walk the sort's index`, q, steps);
      }
    }
  }
  // Popular: the last 24 h's bids drive (their auctions by rowid; that small set may be sorted), then the
  // auctions with bids and without walk the (status, bid_count, end_date, id) order without a sort.
  const popularAll = await capture((ctx) => listPopular(ctx));
  const popular = popularAll.filter((s) => !isImages(s));
  expect(popular).toHaveLength(3);
  for (const q of popularAll.filter(isImages)) if (planOf(q).some((l) => l.includes('TEMP B-TREE'))) note('popular, images: sorts in a temporary B-tree', q, planOf(q));
  const [recent, withBids, withoutBids] = popular.map(planOf);
  if (!recent.some((l) => l.includes('bids_created_auction')) || auctionsLine(recent).some((l) => !l.includes('INTEGER PRIMARY KEY')))
    note('popular, recent bids: not driven by the window of bids', popular[0], recent);
  for (const [i, plan] of [withBids, withoutBids].entries()) {
    if (plan.some((l) => l.includes('TEMP B-TREE')) || !auctionsLine(plan).every((l) => l.startsWith('SEARCH a USING') && l.includes('bid_count')))
      note(`popular, step ${i + 2}: sorts or reads every open auction`, popular[i + 1], plan);
  }
  return found;
}

/** Issue 28's price and city filters, alone and together, with and without a category. */
const FILTERS: Record<string, string>[] = [{ min_price: '1000', max_price: '2000' }, { min_price: '4000' }, { city: 'NIŠ' }, { city: 'novi sad', max_price: '3000' }];

/**
 * The price and city filters keep the rule: no temporary B-tree, the list walks an index ordered like its sort
 * (a city is that index's leading equality), and the count reads an index range (the city, or the price range),
 * never every open auction. One exception, by the cost model: an end-date page of a price range alone reads
 * that range from the price index and sorts it exactly when priceRangeReadWins (a narrow range, a deep page).
 */
async function filteredProblems(): Promise<string[]> {
  const found: string[] = [];
  const note = (what: string, q: Captured, plan: string[]) => found.push(`${what}\n  ${q.sql.slice(0, 160)}\n  ${plan.join('\n  ')}`);
  for (const sort of SORTS) {
    for (const category of [undefined, CATEGORY_VALUES[1]]) {
      for (const filters of FILTERS) {
        for (const page of [1, 14, undefined]) {
          const query = ListQuery.parse({ sort, ...filters, page: page === undefined ? undefined : String(page), ...(category ? { category } : {}) });
          let count: number | undefined;
          const statements = (
            await capture(async (ctx) => {
              const answer = await listAuctions(ctx, { kind: 'public' }, query);
              if (!Array.isArray(answer)) count = answer.count;
            })
          ).filter((s) => !isImages(s));
          const where = `${sort} ${JSON.stringify(filters)} category=${category ?? '-'} page=${page ?? 'plain'}`;
          const priceAlone = !filters.city && !category && SORT_COLUMN[sort] === 'end_date' && count !== undefined;
          const readsRange = priceAlone && priceRangeReadWins(count!, 20 * (page ?? 1), AUCTIONS);
          for (const q of statements) {
            const plan = planOf(q);
            const ranged = auctionsLine(plan).some((l) => /current_price>\?/.test(l));
            if (readsRange && q.sql.includes('order by')) {
              if (!ranged) note(`${where}: a narrow price range (${count} of ${AUCTIONS}) walks instead of reading its range`, q, plan);
              continue;
            }
            if (plan.some((l) => l.includes('TEMP B-TREE'))) note(`${where}: sorts in a temporary B-tree`, q, plan);
            for (const l of auctionsLine(plan)) {
              if (!l.startsWith('SEARCH a USING')) note(`${where}: scans the auctions table`, q, plan);
              if (filters.city && !/city_norm=\?|category=\?/.test(l)) note(`${where}: city not an index equality`, q, plan);
              if (!q.sql.includes('order by') && !filters.city && !category && !/current_price[<>]/.test(l)) note(`${where}: count does not range over the price`, q, plan);
            }
          }
          const list = statements.find((s) => s.sql.includes('order by'));
          if (readsRange) continue;
          const [line] = auctionsLine(planOf(list!));
          const m = /USING (?:COVERING )?INDEX (\S+) \((.*)\)/.exec(line ?? '');
          if (!m) {
            note(`${where}: list reads auctions without an index`, list!, planOf(list!));
            continue;
          }
          const equalities = m[2].split(' AND ').filter((c) => c.endsWith('=?')).length;
          const cols = indexColumns(m[1]);
          if (cols[equalities] !== SORT_COLUMN[sort] || cols[equalities + 1] !== 'id') note(`${where}: index ${m[1]} (${cols.join(', ')}) not ordered like the sort`, list!, planOf(list!));
        }
      }
    }
  }
  return found;
}

const hasStats = () =>
  Boolean(srv.ctx.sqlite.prepare(`select 1 from sqlite_master where name = 'sqlite_stat1'`).get()) &&
  Boolean(srv.ctx.sqlite.prepare(`select 1 from sqlite_stat1 where tbl = 'auctions'`).get());

describeSqliteOnly('EXPLAIN QUERY PLAN, sqlite_stat1, PRAGMA optimize', 'public list plans (fresh database filled through the services)', () => {
  it('sort nothing and walk no more than the page, before any statistics exist', async () => {
    expect(hasStats()).toBe(false);
    expect(await problems()).toEqual([]);
  });

  it('still do after PRAGMA optimize', async () => {
    srv.ctx.sqlite.pragma('optimize = 0x10002');
    expect(hasStats()).toBe(true);
    expect(await problems()).toEqual([]);
  });

  it('still do after a full ANALYZE', async () => {
    srv.ctx.sqlite.exec('ANALYZE');
    expect(hasStats()).toBe(true);
    expect(await problems()).toEqual([]);
  });
});

