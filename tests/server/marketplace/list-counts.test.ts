/**
 * The public list's count comes from what the database maintains (migration 1000: open_auction_counts and
 * the auctions_open_fts index of listed auctions) instead of counting rows. These tests hold it to the
 * truth: a model-based run of random writes against a real SQLite file, and the paged API's `count`
 * against the plain list after the writes a marketplace makes (create, close, delete, block, unblock).
 * Auctions past end_date but not yet closed are covered by the model run ("now" an hour ahead): through the
 * API the closer marks them ended within a second, so that state cannot be held there without a race.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DbHandle } from '../../../server/db/connection';
import { countCards, type ListFilter } from '../../../server/features/auctions/auctions.repository';
import { escapeLike, normaliseForSearch, type SearchTerm } from '@shared/rules/search';
import { startTestServer, type TestServer } from '../../support/app';
import { pastTheCache } from '../../support/list-cache';
import { createUser, loginAs } from '../../support/factories';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { describeSqliteOnly } from '../../support/pg';

const H = 3600 * 1000;
const CATS = ['electronics', 'toys', 'furniture'] as const;
const WORDS = ['šešir', 'sat', 'gitara', 'ćilim', 'lampa'];
/** Cities as written; null: a row written around the service, without city_norm (matches no city filter). */
const CITIES = ['Niš', 'Beograd', 'NIŠ', null] as const;
/** City filters as the service passes them (normalised). */
const CITY_FILTERS = [undefined, 'nis', 'beograd'];
/** Search terms as the service passes them (normalised, 3+ characters so the trigram index is used). */
const TERMS = ['sesir', 'gitara', 'cilim', 'lamp', 'sat ', 'xyz'];

/** A term as already-normalised text, kept as written ('sat ' with its space: a word boundary in the index). */
const rawTerm = (term: string | undefined): SearchTerm | undefined => (term === undefined ? undefined : { text: term, like: `%${escapeLike(term)}%` });

describeSqliteOnly('writes through the raw connection and checks the FTS5 index of listed auctions', 'listed-auction count and index (model-based, real SQLite)', () => {
  let dir: string;
  let h: DbHandle;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aukcije-counts-'));
    h = openDatabase(path.join(dir, 'aukcije.sqlite'));
    await migrateToLatest(h.db);
    const ins = h.sqlite.prepare(`insert into users (first_name, email, phone_number, city, created_at) values (?, ?, '', '', ?)`);
    for (let i = 1; i <= 3; i++) ins.run(`Prodavac ${i}`, `p${i}@example.com`, new Date().toISOString());
  });
  afterAll(async () => {
    await h.db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  type Op =
    | { op: 'insert'; seller: number; cat: number; city: number; words: number[]; active: boolean; endsInH: number }
    | { op: 'recity'; pick: number; city: number }
    | { op: 'close' | 'reopen' | 'delete'; pick: number }
    | { op: 'recategorise'; pick: number; cat: number }
    | { op: 'retitle'; pick: number; words: number[] }
    | { op: 'block' | 'unblock'; seller: number };

  const words = fc.array(fc.integer({ min: 0, max: WORDS.length - 1 }), { minLength: 1, maxLength: 3 });
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant('insert' as const), seller: fc.integer({ min: 1, max: 3 }), cat: fc.integer({ min: 0, max: 2 }), city: fc.integer({ min: 0, max: CITIES.length - 1 }), words, active: fc.boolean(), endsInH: fc.integer({ min: -3, max: 5 }) }) },
    fc.record({ op: fc.constantFrom('close' as const, 'reopen' as const, 'delete' as const), pick: fc.nat() }),
    fc.record({ op: fc.constant('recategorise' as const), pick: fc.nat(), cat: fc.integer({ min: 0, max: 2 }) }),
    fc.record({ op: fc.constant('retitle' as const), pick: fc.nat(), words }),
    fc.record({ op: fc.constant('recity' as const), pick: fc.nat(), city: fc.integer({ min: 0, max: CITIES.length - 1 }) }),
    fc.record({ op: fc.constantFrom('block' as const, 'unblock' as const), seller: fc.integer({ min: 1, max: 3 }) }),
  );

  const cityNorm = (i: number) => (CITIES[i] ? normaliseForSearch(CITIES[i]) : null);

  function apply(o: Op) {
    const s = h.sqlite;
    const ids = (s.prepare('select id from auctions order by id').all() as { id: number }[]).map((r) => r.id);
    const pick = 'pick' in o && ids.length ? ids[o.pick % ids.length] : undefined;
    const text = (w: number[]) => normaliseForSearch(w.map((i) => WORDS[i]).join(' '));
    switch (o.op) {
      case 'insert': {
        const end = new Date(Date.now() + o.endsInH * H).toISOString();
        s.prepare(
          `insert into auctions (seller_id, title, description, category, city, city_norm, phone_number, starting_price, current_price, end_date,
             original_end_date, status, search_text, created_at) values (?, 't', 'd', ?, ?, ?, '0641234567', 100, 100, ?, ?, ?, ?, ?)`,
        ).run(o.seller, CATS[o.cat], CITIES[o.city] ?? 'Beograd', cityNorm(o.city), end, end, o.active ? 'active' : 'ended', text(o.words), new Date().toISOString());
        break;
      }
      case 'close':
      case 'reopen':
        if (pick) s.prepare('update auctions set status = ? where id = ?').run(o.op === 'close' ? 'ended' : 'active', pick);
        break;
      case 'delete':
        if (pick) s.prepare('delete from auctions where id = ?').run(pick);
        break;
      case 'recategorise':
        if (pick) s.prepare('update auctions set category = ? where id = ?').run(CATS[o.cat], pick);
        break;
      case 'recity':
        if (pick) s.prepare('update auctions set city = ?, city_norm = ? where id = ?').run(CITIES[o.city] ?? 'Beograd', cityNorm(o.city), pick);
        break;
      case 'retitle':
        if (pick) s.prepare('update auctions set search_text = ? where id = ?').run(text(o.words), pick);
        break;
      case 'block':
      case 'unblock':
        s.prepare('update users set blocked_at = ? where id = ?').run(o.op === 'block' ? new Date().toISOString() : null, o.seller);
        break;
    }
  }

  /** The public list as it should be, from the auctions and users tables alone. */
  function truth(now: string, category?: string, term?: string, city?: string): number {
    let q = `select count(*) n from auctions a join users u on u.id = a.seller_id
             where a.status = 'active' and a.end_date > ? and u.blocked_at is null`;
    const p: unknown[] = [now];
    if (category) {
      q += ' and a.category = ?';
      p.push(category);
    }
    if (term) {
      q += ' and instr(a.search_text, ?) > 0';
      p.push(term);
    }
    if (city) {
      q += ' and a.city_norm = ?';
      p.push(city);
    }
    return (h.sqlite.prepare(q).get(...p) as { n: number }).n;
  }

  it('after any sequence of writes, every public count (all, per category, per search, per city) equals the rows it stands for', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        for (const o of ops) apply(o);
        // "now" an hour ahead as well: auctions past end_date that the closer has not reached yet.
        for (const now of [new Date().toISOString(), new Date(Date.now() + H).toISOString()]) {
          for (const category of [undefined, ...CATS]) {
            for (const term of [undefined, ...TERMS]) {
              for (const city of CITY_FILTERS) {
                const f: ListFilter = { scope: { kind: 'public' }, now, category, search: rawTerm(term), city };
                expect(await countCards(h.db, f), JSON.stringify({ now, category, term, city })).toBe(truth(now, category, term, city));
              }
            }
          }
        }
        // The city counts themselves: every listed auction with a city, whatever its end date.
        const kept = h.sqlite.prepare(`select city_norm, category, n from open_auction_city_counts where n <> 0 order by 1, 2`).all();
        const listedByCity = h.sqlite
          .prepare(
            `select city_norm, category, count(*) n from auctions a join users u on u.id = a.seller_id
             where a.status = 'active' and u.blocked_at is null and a.city_norm is not null group by 1, 2 order by 1, 2`,
          )
          .all();
        expect(kept).toEqual(listedByCity);
        // The index itself stays sound (rank 0: check the index alone; it holds a subset of its content table).
        h.sqlite.exec(`insert into auctions_open_fts(auctions_open_fts, rank) values ('integrity-check', 0)`);
      }),
      { numRuns: process.env.TEST_FULL === '1' ? 300 : 40 },
    );
    // The model actually reached the interesting states.
    const states = h.sqlite
      .prepare(`select sum(status = 'ended') ended, sum(status = 'active') active, (select count(*) from users where blocked_at is not null) blocked from auctions`)
      .get() as { ended: number; active: number; blocked: number };
    expect(states.ended).toBeGreaterThan(0);
    expect(states.active).toBeGreaterThan(0);
  });
});

describe('GET /api/auctions/?page=…: count follows every write', () => {
  let t: TestServer;
  let visitor: ApiClient;
  beforeAll(async () => {
    t = await startTestServer();
    visitor = new ApiClient(t.url);
  });
  afterAll(async () => {
    await t.close();
  });

  /** The paged count and the plain list (which does not use the maintained count) for the same filter. */
  async function both(query: string) {
    // Rows are written straight into the database here (no event): read past the list cache.
    const paged = await visitor.get(pastTheCache(`/api/auctions/?page=1&${query}`));
    const plain = await visitor.get(pastTheCache(`/api/auctions/?${query}`));
    expect(paged.status).toBe(200);
    return { count: paged.body.count as number, listed: (plain.body as unknown[]).length };
  }

  it('counts created, closed, deleted and blocked sellers’ auctions exactly as the list shows them', async () => {
    const seller = await createUser(t.ctx);
    const other = await createUser(t.ctx);
    const before = await both('');
    expect(before.count).toBe(before.listed);

    const hat = await createAuction(t.ctx, seller.id, { title: 'Šešir od filca', category: 'clothing' });
    await createAuction(t.ctx, seller.id, { title: 'Stari sat', category: 'clothing' });
    const lamp = await createAuction(t.ctx, other.id, { title: 'Lampa šešir', category: 'furniture' });
    expect(await both('')).toEqual({ count: before.count + 3, listed: before.listed + 3 });
    expect(await both('category=clothing')).toEqual({ count: 2, listed: 2 });
    expect(await both('q=SESIR')).toEqual({ count: 2, listed: 2 });
    expect(await both('q=šešir&category=furniture')).toEqual({ count: 1, listed: 1 });

    // Closed by the closer's update, and removed by the seller: gone from every count.
    await t.ctx.db.updateTable('auctions').set({ status: 'ended' }).where('id', '=', hat.id).execute();
    expect(await both('q=sesir')).toEqual({ count: 1, listed: 1 });
    expect(await both('category=clothing')).toEqual({ count: 1, listed: 1 });
    await t.ctx.db.deleteFrom('auctions').where('id', '=', lamp.id).execute();
    expect(await both('q=sesir')).toEqual({ count: 0, listed: 0 });

    // A blocked seller's auctions leave the list and come back when unblocked.
    const admin = await createUser(t.ctx, { admin: true });
    const adminApi = await loginAs(t.url, admin);
    const open = (await both('')).count;
    expect((await adminApi.post(`/api/admin/users/${seller.id}/block/`, {})).status).toBeLessThan(300);
    expect(await both('')).toEqual({ count: open - 1, listed: open - 1 });
    expect(await both('category=clothing')).toEqual({ count: 0, listed: 0 });
    expect((await adminApi.post(`/api/admin/users/${seller.id}/unblock/`, {})).status).toBeLessThan(300);
    expect(await both('')).toEqual({ count: open, listed: open });
    expect(await both('q=stari sat')).toEqual({ count: 1, listed: 1 });
  });

  it("counts a city's auctions (with and without a category) exactly after create, a city edit, close, delete and a block", async () => {
    const seller = await createUser(t.ctx);
    const sellerApi = await loginAs(t.url, seller);
    const queries = ['city=Ni%C5%A1', 'city=nis&category=toys', 'city=beograd', 'city=beograd&category=toys'];
    const counts = async () => {
      const all = await Promise.all(queries.map((q) => both(q)));
      for (const c of all) expect(c.count).toBe(c.listed);
      return all.map((c) => c.count);
    };
    const start = await counts();
    const moved = (deltas: number[]) => start.map((n, i) => n + deltas[i]!);

    const toy = await createAuction(t.ctx, seller.id, { city: 'Niš', category: 'toys' });
    const hat = await createAuction(t.ctx, seller.id, { city: 'NIŠ', category: 'clothing' });
    await createAuction(t.ctx, seller.id, { city: 'Beograd', category: 'toys' });
    expect(await counts()).toEqual(moved([2, 1, 1, 1]));

    // The seller moves the hat to Beograd: out of Niš's count, into Beograd's.
    expect((await sellerApi.patch(`/api/auctions/${hat.id}/`, { city: 'Beograd' })).status).toBe(200);
    expect(await counts()).toEqual(moved([1, 1, 2, 1]));

    // Closed, then removed: gone from its city's counts.
    await t.ctx.db.updateTable('auctions').set({ status: 'ended' }).where('id', '=', toy.id).execute();
    expect(await counts()).toEqual(moved([0, 0, 2, 1]));
    await t.ctx.db.deleteFrom('auctions').where('id', '=', hat.id).execute();
    expect(await counts()).toEqual(moved([0, 0, 1, 1]));

    // A blocked seller's auctions leave every city's count and come back when unblocked.
    const admin = await createUser(t.ctx, { admin: true });
    const adminApi = await loginAs(t.url, admin);
    expect((await adminApi.post(`/api/admin/users/${seller.id}/block/`, {})).status).toBeLessThan(300);
    expect(await counts()).toEqual(moved([0, 0, 0, 0]));
    expect((await adminApi.post(`/api/admin/users/${seller.id}/unblock/`, {})).status).toBeLessThan(300);
    expect(await counts()).toEqual(moved([0, 0, 1, 1]));
  });
});
