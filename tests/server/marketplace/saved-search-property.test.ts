/**
 * Issue 28: "a match means exactly what the list would show". For random criteria (text in either script, with
 * or without diacritics, 1–2 character texts too, category, price bounds, city in any spelling) and a fixed pool of
 * auctions (open, ended, past their end but not yet closed, of a blocked seller; prices on the bounds), the saved
 * search matches an auction exactly when GET /api/auctions/ with those criteria shows it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { AuctionCard } from '@shared/schemas/auctions';
import { SavedSearchInput } from '@shared/schemas/saved-searches';
import type { Auction, User } from '../../../server/db/types';
import { isoAt } from '../../../server/lib/time';
import { matchingSearches } from '../../../server/features/saved-searches/saved-searches.matcher';
import { saveSearch } from '../../../server/features/saved-searches/saved-searches.service';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser } from '../../support/factories';
import { ApiClient } from '../../support/http';

const H = 3600 * 1000;
const WORDS = ['Šešir', 'sesir', 'lampa', 'Лампа', 'gitara', 'đak', 'djak', 'ćup'];
const CITIES = ['Niš', 'nis', 'Ниш', 'Beograd', 'Novi Sad', 'Čačak'];
const QUERIES = ['sesir', 'ŠEŠ', 'lam', 'ЛАМПА', 'a', 'dj', 'đa', 'gitara lampa', 'cup', 'xyz'];
const CATEGORIES = ['electronics', 'music'];

let t: TestServer;
let visitor: ApiClient;
let owner: User;
const pool: Auction[] = [];

beforeAll(async () => {
  t = await startTestServer();
  visitor = new ApiClient(t.url);
  const sellers = await Promise.all([0, 1].map(() => createUser(t.ctx)));
  const blocked = await createUser(t.ctx, { blocked: true });
  owner = await createUser(t.ctx);
  for (let i = 0; i < 48; i++) {
    const words = [WORDS[i % WORDS.length], WORDS[(i * 5 + 3) % WORDS.length]];
    pool.push(
      await createAuction(t.ctx, i % 11 === 0 ? blocked.id : sellers[i % 2].id, {
        title: words.join(' '),
        description: i % 3 === 0 ? 'opis' : 'drugi opis',
        starting_price: [100, 500, 1000, 1500, 2500][i % 5],
        city: CITIES[i % CITIES.length],
        category: CATEGORIES[i % 2],
        status: i % 13 === 0 ? 'ended' : 'active',
        endsInMs: i % 17 === 0 ? -H : 2 * H,
      }),
    );
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const criteria = fc.record(
  {
    q: fc.constantFrom(...QUERIES),
    category: fc.constantFrom(...CATEGORIES),
    min_price: fc.constantFrom(0, 100, 499, 500, 1000, 1501),
    max_price: fc.constantFrom(100, 500, 1499, 1500, 3000),
    city: fc.constantFrom(...CITIES, 'NIS', 'beograd ', 'ЧАЧАК'),
  },
  { requiredKeys: [] },
);

it('a saved search matches an auction exactly when the list with its criteria shows it', async () => {
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(criteria, async (c) => {
      fc.pre(Object.keys(c).length > 0);
      runs += 1;
      // Each run's search alone is stored: the matcher's answer for it is compared with the list's.
      await t.ctx.db.deleteFrom('saved_searches').execute();
      const saved = await saveSearch(t.ctx, owner, SavedSearchInput.parse(c));
      const query = new URLSearchParams(Object.entries(c).map(([k, v]) => [k, String(v)]));
      const res = await visitor.get(`/api/auctions/?${query.toString()}`);
      expect(res.status).toBe(200);
      const shown = new Set(z.array(AuctionCard).parse(res.body).map((a) => a.id));
      const now = isoAt(Date.now());
      for (const a of pool) {
        const matched = (await matchingSearches(t.ctx, a.id, now)).some((s) => s.id === saved.id);
        expect(matched, `${JSON.stringify(c)} auction ${a.id} (${a.title}, ${a.city}, ${a.current_price}, ${a.category})`).toBe(shown.has(a.id));
      }
    }),
    { numRuns: 60, seed: 28 },
  );
  expect(runs).toBeGreaterThan(30);
}, 120_000);
