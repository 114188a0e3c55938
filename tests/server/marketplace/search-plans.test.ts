/**
 * A search page can be found three ways (auctions.repository.ts, SearchPlan): from the trigram index's
 * matches, walking the sort index against the materialised matches, or walking it testing each row's text.
 * The cheapest is chosen per request (docs/performance.md, B3). All three must give exactly the page a
 * substring search gives, for every sort and depth, rare and common terms, ended, past-end and blocked rows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DbHandle } from '../../../server/db/connection';
import { chooseSearchPlan, listCardsByPlan, priceRangeReadWins, type ListFilter, type SearchPlan } from '../../../server/features/auctions/auctions.repository';
import { normaliseForSearch, searchTerm } from '@shared/rules/search';
import type { Sort } from '@shared/schemas/auctions';
import { describeSqliteOnly } from '../../support/pg';

const N = 3000;
const H = 3600 * 1000;
let dir: string;
let h: DbHandle;
const now = new Date().toISOString();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aukcije-plans-'));
  h = openDatabase(path.join(dir, 'aukcije.sqlite'));
  await migrateToLatest(h.db);
  const s = h.sqlite;
  const user = s.prepare(`insert into users (first_name, email, created_at, blocked_at) values (?, ?, ?, ?)`);
  for (let i = 1; i <= 10; i++) user.run(`P${i}`, `p${i}@example.com`, now, i === 10 ? now : null); // seller 10 is blocked
  const ins = s.prepare(
    `insert into auctions (seller_id, title, description, category, city, phone_number, starting_price, current_price, end_date,
       original_end_date, status, search_text, created_at) values (?, 't', 'd', 'toys', 'Beograd', '0641234567', ?, ?, ?, ?, ?, ?, ?)`,
  );
  s.transaction(() => {
    for (let i = 1; i <= N; i++) {
      const words = ['predmet'];
      if (i % 3 === 0) words.push('Lampa');
      if (i % 50 === 0) words.push('Gitara');
      if (i % 400 === 0) words.push('Ćilim');
      const end = new Date(Date.now() + (i % 97 === 0 ? -H : H + ((i * 7919) % 5000) * 60_000)).toISOString();
      const price = 100 + ((i * 31) % 997); // many equal prices: ties break on id
      ins.run((i % 10) + 1, price, price, end, end, i % 13 === 0 ? 'ended' : 'active', normaliseForSearch(words.join(' ')), now);
    }
  })();
});
afterAll(async () => {
  await h.db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ORDER: Record<Sort, string> = {
  endDateAsc: 'a.end_date asc, a.id asc',
  endDateDesc: 'a.end_date desc, a.id desc',
  priceAsc: 'a.current_price asc, a.id asc',
  priceDesc: 'a.current_price desc, a.id desc',
};

/** The page as a plain substring search over the listed, unexpired auctions gives it. */
function truth(term: string, sort: Sort, limit: number, offset: number): number[] {
  const rows = h.sqlite
    .prepare(
      `select a.id from auctions a join users u on u.id = a.seller_id
       where a.status = 'active' and a.end_date > ? and u.blocked_at is null and instr(a.search_text, ?) > 0
       order by ${ORDER[sort]} limit ? offset ?`,
    )
    .all(now, term, limit, offset) as { id: number }[];
  return rows.map((r) => r.id);
}

const filter = (q: string): ListFilter => ({ scope: { kind: 'public' }, now, search: searchTerm(q) });

describeSqliteOnly('its FTS5 search plans; on PostgreSQL every plan is one LIKE over the trigram index', 'search plans', () => {
  it('every plan gives the substring search’s page, for common, rare and absent terms, every sort and depth', async () => {
    let pages = 0;
    for (const q of ['LAMPA', 'gitara', 'ćilim', 'predmet', 'nema ovoga']) {
      const term = normaliseForSearch(q);
      for (const sort of Object.keys(ORDER) as Sort[]) {
        for (const offset of [0, 20, 200, 980]) {
          const expected = truth(term, sort, 20, offset);
          for (const plan of ['drive', 'walkIndex', 'walkScan'] as SearchPlan[]) {
            const got = (await listCardsByPlan(h.db, filter(q), sort, 20, offset, plan)).map((r) => r.id);
            expect(got, `${q} ${sort} +${offset} ${plan}`).toEqual(expected);
          }
          pages += 1;
        }
      }
    }
    expect(pages).toBe(80);
    expect(truth('lampa', 'endDateAsc', 20, 0)).toHaveLength(20); // the common term fills pages
  });

  it('chooses the walk over the text for a common term’s first page, the match set deeper, the matches for a rare term', async () => {
    expect(await chooseSearchPlan(h.db, filter('lampa'), 20)).toBe('walkScan');
    expect(await chooseSearchPlan(h.db, filter('lampa'), 1000)).toBe('walkIndex');
    expect(await chooseSearchPlan(h.db, filter('ćilim'), 20)).toBe('drive');
    expect(await chooseSearchPlan(h.db, filter('nema ovoga'), 20)).toBe('drive');
  });

  it('an end-date page of a price range is the same read from the price index as walked, and the cost model reads a narrow one', async () => {
    const truthPriced = (min: number, max: number, sort: Sort, offset: number) =>
      (
        h.sqlite
          .prepare(
            `select a.id from auctions a join users u on u.id = a.seller_id
             where a.status = 'active' and a.end_date > ? and u.blocked_at is null and a.current_price between ? and ?
             order by ${ORDER[sort]} limit 20 offset ?`,
          )
          .all(now, min, max, offset) as { id: number }[]
      ).map((r) => r.id);
    for (const [min, max] of [
      [500, 510],
      [100, 1100],
      [2000, 3000],
    ]) {
      const f: ListFilter = { scope: { kind: 'public' }, now, minPrice: min, maxPrice: max };
      for (const sort of ['endDateAsc', 'endDateDesc'] as Sort[]) {
        for (const offset of [0, 20, 400]) {
          const expected = truthPriced(min!, max!, sort, offset);
          for (const byPrice of [false, true]) expect((await listCardsByPlan(h.db, f, sort, 20, offset, 'drive', byPrice)).map((r) => r.id), `${min}–${max} ${sort} +${offset} ${byPrice}`).toEqual(expected);
        }
      }
    }
    // 1 % of 20,000 auctions (B3's price row): read; half of them for page 1: walked; none at all: read (a walk would step over every one).
    expect(priceRangeReadWins(206, 20, 20_000)).toBe(true);
    expect(priceRangeReadWins(10_000, 20, 20_000)).toBe(false);
    expect(priceRangeReadWins(0, 20, 20_000)).toBe(true);
  });
});
