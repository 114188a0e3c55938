/**
 * The PostgreSQL counterpart of search-plans.test.ts: the public search and its count are served by the
 * pg_trgm GIN indexes of migrations 0840/1000, not by reading every open auction, and match what SQLite's
 * FTS5 plans match (case, diacritics, Cyrillic, substring).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseForSearch } from '@shared/rules/search';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser } from '../../support/factories';
import { onPostgres } from '../../support/pg';

const N = 30_000;
const TITLES = ['Šešir od filca', 'Стари шешир', 'Gitara akustična', 'Lampa stona', 'Ćilim ručni rad'];

describe.runIf(onPostgres)('search on PostgreSQL [PostgreSQL only: pg_trgm plans]', () => {
  let t: TestServer;
  const now = new Date().toISOString();
  beforeAll(async () => {
    t = await startTestServer();
    const seller = await createUser(t.ctx);
    const end = new Date(Date.now() + 86400_000).toISOString();
    const rows = Array.from({ length: N }, (_, i) => {
      // Hats are rare (1 in 100): a selective search, as a trigram index is meant for.
      const title = i % 100 === 0 ? TITLES[i % 200 === 0 ? 0 : 1] : `${TITLES[2 + (i % 3)]} ${i}`;
      const description = `Opis ${i}`;
      return {
        seller_id: seller.id,
        title,
        description,
        category: 'ostalo',
        city: 'Beograd',
        phone_number: '0641234567',
        starting_price: 100,
        current_price: 100,
        end_date: end,
        original_end_date: end,
        search_text: normaliseForSearch(`${title} ${description}`),
        created_at: now,
      };
    });
    for (let i = 0; i < rows.length; i += 500) await t.ctx.db.insertInto('auctions').values(rows.slice(i, i + 500)).execute();
    // As autovacuum would: the GIN indexes' pending entries merged (the planner prices them as a scan), statistics taken.
    await sql`VACUUM ANALYZE auctions`.execute(t.ctx.db);
  });
  afterAll(() => t?.close());

  const plan = async (query: string) =>
    (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${query}`).execute(t.ctx.db)).rows.map((r) => r['QUERY PLAN']).join('\n');

  it('the public count and page of a rare term read the listed auctions’ trigram index', async () => {
    const count = await plan(`SELECT count(*) FROM auctions a WHERE a.status = 'active' AND a.end_date > '${now}' AND a.search_text LIKE '%sesir%'`);
    expect(count).toContain('auctions_open_search_trgm');
    expect(count).not.toContain('Seq Scan');
    const page = await plan(
      `SELECT a.id FROM auctions a WHERE a.status = 'active' AND a.end_date > '${now}' AND a.search_text LIKE '%sesir%' ORDER BY a.current_price, a.id LIMIT 30`,
    );
    expect(page).toContain('trgm');
  });

  it('finds the same auctions in either script, with or without diacritics, in any case', async () => {
    const counts = [];
    for (const q of ['šešir', 'SESIR', 'шешир', 'esi']) {
      const res = await fetch(`${t.url}/api/auctions/?page=1&q=${encodeURIComponent(q)}`);
      counts.push(((await res.json()) as { count: number }).count);
    }
    expect(counts).toEqual([N / 100, N / 100, N / 100, N / 100]);
  });
});
