/**
 * The PostgreSQL counterpart of list-plans.test.ts (issue 13): the exact statements the services run for every
 * public list the SQLite test covers (every sort, first and deep pages and the unpaged list, no category,
 * 'all-auctions' and every category; their counts; the popular list; a search for a common and a rare term)
 * are EXPLAINed on a database of the size the list goals are stated for (100,000 auctions, B3), ANALYZEd as
 * autovacuum would have. (At 20,000 the table is so small that PostgreSQL prices walking the end-date index of
 * all auctions, skipping the other categories' 13 rows in 14, like walking the category's own index.)
 * A paged list walks the index ordered like its sort, its category an index condition, and stops at the page:
 * no Sort of auctions, no Seq Scan. No list or count reads every auction, and a card's first image is an
 * index lookup. A search is served by the listed auctions' trigram index (a rare term) or walks the sort's
 * index (a common one). The indexes are those of migration 2026-11-24-0100; PostgreSQL needed none of its own.
 */
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../../server/context';
import type { Database } from '../../../server/db/types';
import { listAuctions, listPopular } from '../../../server/features/auctions/auctions.service';
import { ALL_AUCTIONS, CATEGORY_VALUES } from '@shared/categories';
import { normaliseForSearch } from '@shared/rules/search';
import { ListQuery, SORTS, type Sort } from '@shared/schemas/auctions';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser } from '../../support/factories';
import { onPostgres } from '../../support/pg';

const AUCTIONS = 100_000;
const HOUR = 3600_000;

/** One node of EXPLAIN (FORMAT JSON). */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Alias?: string;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

const CATEGORIES: (string | undefined)[] = [undefined, ALL_AUCTIONS, ...CATEGORY_VALUES];
/** Issue 28: cities spread over the auctions, so a city filter keeps a part of them. */
const PG_CITIES = ['Beograd', 'Niš', 'Novi Sad', 'Kragujevac', 'Subotica', 'Čačak', 'Kikinda', 'Valjevo'];
const PAGES: (number | undefined)[] = [1, 2, 14, undefined];
/** The index every sort walks, without and with a category (migration 2026-11-24-0100). */
const SORT_INDEX: Record<Sort, [all: string, category: string]> = {
  endDateAsc: ['auctions_open_end', 'auctions_open_category_end'],
  endDateDesc: ['auctions_open_end', 'auctions_open_category_end'],
  priceAsc: ['auctions_open_price', 'auctions_open_category_price'],
  priceDesc: ['auctions_open_price', 'auctions_open_category_price'],
};

describe.runIf(onPostgres)('public list plans on PostgreSQL [PostgreSQL only: EXPLAIN of its planner]', () => {
  let t: TestServer;
  let pool: pg.Pool;

  beforeAll(async () => {
    t = await startTestServer();
    pool = new pg.Pool({ connectionString: t.ctx.config.databaseUrl, max: 2 });
    await seed(t.ctx);
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await t?.close();
  });

  /** Runs `fn` with the app's context on a connection that records every statement it executes. */
  async function capture(fn: (ctx: AppContext) => Promise<unknown>): Promise<CompiledQuery[]> {
    const out: CompiledQuery[] = [];
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (e) => void out.push(e.query) });
    // The app's context with this db (not a spread: that would read ctx.sqlite, which throws on PostgreSQL).
    await fn(Object.create(t.ctx, { db: { value: db } }) as AppContext);
    return out;
  }

  const explain = async (q: CompiledQuery): Promise<PlanNode> =>
    ((await pool.query(`EXPLAIN (FORMAT JSON) ${q.sql}`, q.parameters as unknown[])).rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;

  const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
  /** The nodes that read the auctions table. */
  /**
   * The plan's reads of `auctions`, but for each card's `relisted_as` (issue 26): one probe of the unique
   * auctions_relisted_from index by `relisted_from = a.id` per card of the page, never a walk of the auctions.
   */
  const relistProbe = (x: PlanNode) => x['Index Name'] === 'auctions_relisted_from' && /^\(relisted_from = a\.id\)$/.test(String(x['Index Cond'] ?? ''));
  const auctionReads = (n: PlanNode) => nodes(n).filter((x) => x['Relation Name'] === 'auctions' && !relistProbe(x));
  const show = (n: PlanNode, depth = 0): string =>
    [`${'  '.repeat(depth)}${n['Node Type']}${n['Index Name'] ? ` using ${n['Index Name']}` : ''}${n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}${n['Index Cond'] ? ` (${n['Index Cond']})` : ''}`, ...(n.Plans ?? []).map((c) => show(c, depth + 1))].join('\n');
  /** The cards' batched images statement (images.repository.ts; the cards' own first-image subquery is not it). */
  const isImages = (q: CompiledQuery) => /^select [^(]* from "auction_images"/.test(q.sql);
  const isList = (q: CompiledQuery) => /order by/i.test(q.sql) && !isImages(q);

  /** Every problem in the plans of the public lists without a search (empty when all plans are as they should be). */
  async function listProblems(): Promise<string[]> {
    const found: string[] = [];
    for (const sort of SORTS) {
      for (const category of CATEGORIES) {
        for (const page of PAGES) {
          const query = ListQuery.parse({ sort, page: page === undefined ? undefined : String(page), ...(category ? { category } : {}) });
          const statements = await capture((ctx) => listAuctions(ctx, { kind: 'public' }, query));
          const oneCategory = category !== undefined && category !== ALL_AUCTIONS;
          const where = `${sort} category=${category ?? '-'} page=${page ?? 'plain'}`;
          for (const q of statements.filter((s) => !isImages(s))) {
            const plan = await explain(q);
            const note = (what: string) => found.push(`${where}: ${what}\n${show(plan)}`);
            const reads = auctionReads(plan);
            if (reads.some((r) => r['Node Type'] === 'Seq Scan')) note('reads every auction (Seq Scan)');
            if (nodes(plan).some((n) => n['Relation Name'] === 'auction_images' && n['Node Type'] === 'Seq Scan')) note('reads every image for a card');
            if (!isList(q)) continue;
            // The unpaged list (up to 1,000 cards) may be cheaper to sort than to walk: only pages must walk.
            if (page === undefined) continue;
            if (nodes(plan).some((n) => /Sort/.test(n['Node Type']) && auctionReads(n).length)) note('sorts the auctions');
            const index = SORT_INDEX[sort][oneCategory ? 1 : 0];
            if (reads.length !== 1 || !/^Index (Only )?Scan/.test(reads[0]['Node Type']) || reads[0]['Index Name'] !== index) note(`does not walk ${index}`);
            if (oneCategory && !reads.every((r) => r['Index Cond']?.includes('category'))) note('category not an index condition');
          }
        }
      }
    }
    return found;
  }

  it('every public list page walks the index ordered like its sort, and no list or count reads every auction', async () => {
    expect(await listProblems()).toEqual([]);
  });

  it('the price and city filters (issue 28): no list or count reads every auction; a city is an index condition of an index in the sort’s order; a price-sorted page walks the price range', async () => {
    const found: string[] = [];
    for (const sort of SORTS) {
      for (const category of [undefined, CATEGORY_VALUES[2]]) {
        for (const filters of [{ min_price: '10000', max_price: '12000' }, { min_price: '45000' }, { city: 'NIŠ' }, { city: 'novi sad', max_price: '3000' }] as Record<string, string>[]) {
          const query = ListQuery.parse({ sort, page: '2', ...filters, ...(category ? { category } : {}) });
          for (const q of (await capture((ctx) => listAuctions(ctx, { kind: 'public' }, query))).filter((x) => !isImages(x))) {
            const plan = await explain(q);
            const reads = auctionReads(plan);
            const where = `${sort} ${JSON.stringify(filters)} category=${category ?? '-'} ${isList(q) ? 'page' : 'count'}`;
            if (reads.some((r) => r['Node Type'] === 'Seq Scan')) found.push(`${where}: reads every auction\n${show(plan)}`);
            // The city (or, with one, the category: either equality leaves a small part) is an index condition.
            if (filters.city && !nodes(plan).some((n) => n['Index Name']?.startsWith('auctions_') && /city_norm|category/.test(n['Index Cond'] ?? ''))) found.push(`${where}: city not an index condition\n${show(plan)}`);
            const sorts = nodes(plan).some((n) => /Sort/.test(n['Node Type']) && auctionReads(n).length);
            // With a category and a city, PostgreSQL may read one equality's price range (a few hundred rows
            // here) and sort just those: a bounded read, not every auction (checked above).
            if (isList(q) && sort.startsWith('price') && sorts && !(category && filters.city)) found.push(`${where}: sorts the auctions\n${show(plan)}`);
          }
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('a search is served by the trigram index (a rare term) or walks the sort’s index (a common one)', async () => {
    const found: string[] = [];
    for (const sort of SORTS) {
      for (const [q, rare] of [['šešir', true], ['predmet', false]] as const) {
        for (const category of [undefined, CATEGORY_VALUES[2]]) {
          const query = ListQuery.parse({ sort, page: '1', q, ...(category ? { category } : {}) });
          for (const s of (await capture((ctx) => listAuctions(ctx, { kind: 'public' }, query))).filter((x) => !isImages(x))) {
            const plan = await explain(s);
            const reads = auctionReads(plan);
            const where = `q=${q} ${sort} category=${category ?? '-'} ${isList(s) ? 'page' : 'count'}`;
            // A common term's count reads its matches, nearly every auction: there a scan is the right plan.
            if ((rare || isList(s)) && reads.some((r) => r['Node Type'] === 'Seq Scan')) found.push(`${where}: reads every auction\n${show(plan)}`);
            if (rare && !nodes(plan).some((n) => n['Index Name']?.endsWith('_trgm'))) found.push(`${where}: not through the trigram index\n${show(plan)}`);
            // A common term's page walks the sort's index and stops at the page: its matches are not all sorted.
            if (!rare && isList(s) && nodes(plan).some((n) => /Sort/.test(n['Node Type']) && auctionReads(n).length)) found.push(`${where}: sorts every match\n${show(plan)}`);
          }
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('the popular list reads the window of bids, then walks an index in its order, without reading every auction', async () => {
    const statements = (await capture((ctx) => listPopular(ctx))).filter((s) => !isImages(s));
    expect(statements).toHaveLength(3);
    const [recent, withBids, withoutBids] = await Promise.all(statements.map(explain));
    expect(auctionReads(recent).every((r) => r['Node Type'] !== 'Seq Scan'), show(recent)).toBe(true);
    expect(nodes(recent).some((n) => n['Index Name'] === 'bids_created_auction'), show(recent)).toBe(true);
    for (const plan of [withBids, withoutBids]) {
      expect(nodes(plan).some((n) => /Sort/.test(n['Node Type']) && auctionReads(n).length), show(plan)).toBe(false);
      // Most bids first walks the popular index; without bids (nearly every open auction), soonest end first
      // walks it or the end-date index, skipping the few with bids.
      expect(auctionReads(plan).map((r) => r['Index Name']), show(plan)).toEqual([plan === withBids ? 'auctions_open_popular' : expect.stringMatching(/^auctions_open_(popular|end)$/)]);
    }
  });
});

/**
 * 100,000 auctions of four sellers (one blocked) over every category, prices and ends spread, a few already
 * ended and a few past their end but not yet closed; 1 in 200 is a hat (a rare search term); the auctions of
 * five open ones have bids (two within the popular list's window), the ended ones ten old bids each;
 * every third auction has two images. Inserted in batches (the services would take minutes), then VACUUM ANALYZE.
 */
async function seed(ctx: AppContext): Promise<void> {
  const sellers = await Promise.all([0, 1, 2].map(() => createUser(ctx)));
  const blocked = await createUser(ctx, { blocked: true });
  const bidder = await createUser(ctx);
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const rows = Array.from({ length: AUCTIONS }, (_, i) => {
    const title = i % 200 === 0 ? 'Šešir od filca' : `Predmet ${i}`;
    const description = `Opis predmeta ${i}`;
    const ended = i % 50 === 1;
    const end = ended || i % 500 === 7 ? now - ((i % 7) + 1) * HOUR : now + ((i * 7919) % (7 * 24)) * HOUR + (i % 3600) * 1000;
    const price = 100 + ((i * 104729) % 50_000);
    // Five auctions with bids, two of them in the last 24 h: the popular list takes all three of its steps.
    // The ended ones have ten old bids each: the window of bids is a small part of a large table.
    const bids = i % 20_000 === 0 ? (i % 9) + 1 : ended ? 10 : 0;
    return {
      seller_id: i % 100 === 3 ? blocked.id : sellers[i % 3].id,
      title,
      description,
      category: CATEGORY_VALUES[i % CATEGORY_VALUES.length],
      city: PG_CITIES[i % PG_CITIES.length],
      city_norm: normaliseForSearch(PG_CITIES[i % PG_CITIES.length]),
      phone_number: '0641234567',
      starting_price: 100,
      current_price: price,
      bid_count: bids,
      status: ended ? ('ended' as const) : ('active' as const),
      end_date: iso(end),
      original_end_date: iso(end),
      search_text: normaliseForSearch(`${title} ${description}`),
      created_at: iso(now - 8 * 24 * HOUR),
    };
  });
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 4000) {
    ids.push(...(await ctx.db.insertInto('auctions').values(rows.slice(i, i + 4000)).returning('id').execute()).map((r) => r.id));
  }
  const bids = rows.flatMap((r, i) =>
    Array.from({ length: r.bid_count }, (_, k) => ({
      auction_id: ids[i],
      bidder_id: bidder.id,
      amount: r.current_price - k * 10,
      created_at: iso(now - (r.status === 'ended' ? 48 + (i % 200) : i % 96) * HOUR + k * 1000),
    })),
  );
  for (let i = 0; i < bids.length; i += 1000) await ctx.db.insertInto('bids').values(bids.slice(i, i + 1000)).execute();
  // Every third auction has two images: a card's first image is an index lookup, not a read of all images.
  const images = ids.filter((_, i) => i % 3 === 0).flatMap((id) =>
    [0, 1].map((position) => ({ auction_id: id, position, card_path: `c/${id}-${position}.webp`, large_path: `l/${id}-${position}.webp`, width: 800, height: 600, created_at: iso(now) })),
  );
  for (let i = 0; i < images.length; i += 2000) await ctx.db.insertInto('auction_images').values(images.slice(i, i + 2000)).execute();
  await sql`VACUUM ANALYZE`.execute(ctx.db);
}
