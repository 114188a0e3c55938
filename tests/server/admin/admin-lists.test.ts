/**
 * Issue 11 §4: the admin lists with more than a page of work. GET /api/all-auction-items/ as an admin takes
 * `status` and the bid-count sorts besides `q`/`page`; GET /api/admin/users/ takes `q`, `page`, `page_size`
 * (paged shape with `page`, the old plain array without). Real server, real SQLite file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser, loginAs, userRowsWritten } from '../../support/factories';
import type { ApiClient } from '../../support/http';

let t: TestServer;
let admin: ApiClient;
let user: ApiClient;
let sellerId = 0;

type Card = { id: number; title: string; bid_count: number; status: string; end_date: string };
type Paged<T> = { count: number; next: number | null; previous: number | null; results: T[] };
type AdminUserRow = { id: number; first_name: string; email: string };

const HOUR = 3600 * 1000;
/** A word that only this file's auctions use, so the counts do not depend on other rows. */
const TAG = `adm${process.pid}x`;

beforeAll(async () => {
  t = await startTestServer();
  const a = await createUser(t.ctx, { admin: true });
  admin = await loginAs(t.url, a);
  const u = await createUser(t.ctx);
  user = await loginAs(t.url, u);
  sellerId = (await createUser(t.ctx)).id;
  // 30 open auctions (bid counts 0..29, ending 1..30 h from now) and 5 ended ones.
  for (let i = 0; i < 30; i++) {
    await createAuction(t.ctx, sellerId, { title: `${TAG} otvorena ${i}`, bid_count: i, endsInMs: (i + 1) * HOUR });
  }
  for (let i = 0; i < 5; i++) {
    await createAuction(t.ctx, sellerId, { title: `${TAG} zavrsena ${i}`, status: 'ended', bid_count: 100 + i, endsInMs: -(i + 1) * HOUR });
  }
  await createAuction(t.ctx, sellerId, { title: `${TAG} Šešir od filca`, endsInMs: 40 * HOUR });
});
afterAll(async () => {
  await t.close();
});

const auctions = async (query: string) => {
  const res = await admin.get(`/api/all-auction-items/?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as Paged<Card>;
};

describe('GET /api/all-auction-items/ as an admin', () => {
  it('finds an auction past the first page by a word of its title (diacritics-insensitive)', async () => {
    const all = await auctions(`q=${TAG}&page=1&page_size=20`);
    expect(all.count).toBe(36);
    expect(all.results.map((c) => c.title)).not.toContain(`${TAG} Šešir od filca`);
    const found = await auctions(`q=${encodeURIComponent('sesir')}&page=1&page_size=20`);
    expect(found.results.map((c) => c.title)).toEqual([`${TAG} Šešir od filca`]);
    expect(found.count).toBe(1);
  });

  it('filters by status: active are open and not past their end, ended are closed or past it', async () => {
    const active = await auctions(`q=${TAG}&status=active&page=1&page_size=100`);
    expect(active.count).toBe(31);
    expect(active.results.every((c) => c.status === 'active')).toBe(true);
    const ended = await auctions(`q=${TAG}&status=ended&page=1&page_size=100`);
    expect(ended.count).toBe(5);
    expect(ended.results.every((c) => c.status === 'ended')).toBe(true);
    expect(ended.results.map((c) => c.title).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `${TAG} zavrsena ${i}`));
    // Blank means both.
    expect((await auctions(`q=${TAG}&status=&page=1`)).count).toBe(36);
  });

  it('pages the filtered list with counts and links', async () => {
    const p1 = await auctions(`q=${TAG}&status=active&page=1&page_size=20&sort=endDateAsc`);
    const p2 = await auctions(`q=${TAG}&status=active&page=2&page_size=20&sort=endDateAsc`);
    expect([p1.count, p1.next, p1.previous, p1.results.length]).toEqual([31, 2, null, 20]);
    expect([p2.count, p2.next, p2.previous, p2.results.length]).toEqual([31, null, 1, 11]);
    const ids = [...p1.results, ...p2.results].map((c) => c.id);
    expect(new Set(ids).size).toBe(31);
    const ends = [...p1.results, ...p2.results].map((c) => c.end_date);
    expect(ends).toEqual([...ends].sort());
  });

  it('sorts by bid count both ways and by end date descending', async () => {
    const most = await auctions(`q=${TAG}&sort=bidsDesc&page=1&page_size=3`);
    expect(most.results.map((c) => c.bid_count)).toEqual([104, 103, 102]);
    const fewest = await auctions(`q=${TAG}&status=active&sort=bidsAsc&page=1&page_size=3`);
    expect(fewest.results.map((c) => c.bid_count)).toEqual([0, 0, 1]);
    const latest = await auctions(`q=${TAG}&sort=endDateDesc&page=1&page_size=1`);
    expect(latest.results[0].title).toBe(`${TAG} Šešir od filca`);
    // The same order through a 1–2 character search (LIKE, no trigram index) and without one.
    const all = await auctions(`sort=bidsDesc&page=1&page_size=100`);
    const counts = all.results.map((c) => c.bid_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('answers 400 with a Serbian message for a bad status or page, never a 500', async () => {
    for (const q of ['status=open', 'status=ACTIVE', 'status=active&status=ended', 'page=0', 'page=abc', 'page=1.5']) {
      const res = await admin.get(`/api/all-auction-items/?${q}&page_size=5`);
      expect(res.status, q).toBe(400);
      expect(typeof res.body.detail, q).toBe('string');
    }
    expect((await admin.get('/api/all-auction-items/?status=nope')).body.detail).toBe('Status mora biti „active“ ili „ended“.');
    expect((await admin.get(`/api/all-auction-items/?q=${'x'.repeat(201)}`)).body.detail).toBe('Pretraga može imati najviše 200 karaktera.');
  });

  it('leaves the public list as it was for everyone else: status ignored, ended auctions never shown', async () => {
    const res = await user.get(`/api/all-auction-items/?q=${TAG}&status=ended&sort=bidsDesc&page=1&page_size=100`);
    expect(res.status).toBe(200);
    const body = res.body as Paged<Card>;
    expect(body.count).toBe(31);
    expect(body.results.every((c) => c.status === 'active')).toBe(true);
    // An unknown sort falls back to the default (end date, soonest first) as before.
    const ends = body.results.map((c) => c.end_date);
    expect(ends).toEqual([...ends].sort());
  });
});

describe('GET /api/admin/users/ paging and search', () => {
  const USER_TAG = `pretraga${process.pid}`;
  let people: AdminUserRow[] = [];

  beforeAll(async () => {
    people = [];
    for (let i = 0; i < 45; i++) {
      const u = await createUser(t.ctx, { first_name: `Član ${i}`, email: `${USER_TAG}.clan${i}@primer.rs` });
      people.push({ id: u.id, first_name: u.first_name, email: u.email });
    }
    const u = await createUser(t.ctx, { first_name: 'Đorđe Šćepanović', email: `djole${process.pid}@posta.rs` });
    people.push({ id: u.id, first_name: u.first_name, email: u.email });
  });

  const users = async (query: string) => {
    const res = await admin.get(`/api/admin/users/?${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body as Paged<AdminUserRow>;
  };

  it('pages with count / next / previous, oldest first', async () => {
    const p1 = await users(`q=${USER_TAG}&page=1`);
    expect([p1.count, p1.next, p1.previous, p1.results.length]).toEqual([45, 2, null, 20]);
    const p3 = await users(`q=${USER_TAG}&page=3`);
    expect([p3.count, p3.next, p3.previous, p3.results.length]).toEqual([45, null, 2, 5]);
    expect(p3.results.map((u) => u.first_name)).toEqual([40, 41, 42, 43, 44].map((i) => `Član ${i}`));
    const p9 = await users(`q=${USER_TAG}&page=9`);
    expect([p9.count, p9.results.length]).toEqual([45, 0]);
    const small = await users(`q=${USER_TAG}&page=2&page_size=10`);
    expect(small.results.map((u) => u.first_name)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map((i) => `Član ${i}`));
    // Too large a page is clamped to MAX_PAGE_SIZE (100) like every list, not refused.
    const whole = await users('page=1&page_size=1000');
    expect(whole.results.length).toBe(Math.min(whole.count, 100));
  });

  it('finds a user by part of the e-mail, any case', async () => {
    const found = await users(`q=${encodeURIComponent(`${USER_TAG.toUpperCase()}.CLAN37@`)}&page=1`);
    expect(found.results.map((u) => u.email)).toEqual([`${USER_TAG}.clan37@primer.rs`]);
    expect(found.count).toBe(1);
  });

  it('finds a user by first name with or without diacritics, trimmed', async () => {
    for (const q of ['Šćepan', 'scepan', 'ŠĆEPAN', '  djordje ', 'Ђорђе', 'đorđe']) {
      const found = await users(`q=${encodeURIComponent(q)}&page=1`);
      expect(found.results.map((u) => u.first_name), q).toEqual(['Đorđe Šćepanović']);
    }
  });

  it('finds a user by a new name or e-mail after a change, not by the old one (the stored search text follows)', async () => {
    const u = await createUser(t.ctx, { first_name: 'Stari Naziv', email: `stari${process.pid}@primer.rs` });
    expect((await users(`q=${encodeURIComponent('stari naziv')}&page=1`)).results.map((r) => r.id)).toEqual([u.id]);
    const stored = await t.ctx.db.selectFrom('users').select('search_text').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(stored.search_text).toBe(`stari naziv\u0001stari${process.pid}@primer.rs`);
    // Through the real profile call, then straight in the database (e-mail; no call changes it).
    const api = await loginAs(t.url, u);
    expect((await api.put('/api/update-profile/', { first_name: 'Novi Ćirić' })).status).toBe(200);
    await t.ctx.db.updateTable('users').set({ email: `novi${process.pid}@primer.rs` }).where('id', '=', u.id).execute();
    await userRowsWritten(t.ctx);
    expect((await users(`q=${encodeURIComponent('stari')}&page=1`)).results.map((r) => r.id)).not.toContain(u.id);
    expect((await users(`q=${encodeURIComponent('novi ciric')}&page=1`)).results.map((r) => r.id)).toEqual([u.id]);
    expect((await users(`q=novi${process.pid}@&page=1`)).results.map((r) => r.id)).toEqual([u.id]);
  });

  it('treats LIKE wildcards in the search as plain characters', async () => {
    expect((await users('q=%25&page=1')).count).toBe(0);
    expect((await users('q=_&page=1')).count).toBe(0);
    expect((await users(`q=${encodeURIComponent('clan1_')}&page=1`)).count).toBe(0);
    expect((await users(`q=${encodeURIComponent('%clan1%')}&page=1`)).count).toBe(0);
  });

  it('without page keeps the plain array of before (every match), so older clients still work', async () => {
    const res = await admin.get('/api/admin/users/');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const ids = (res.body as AdminUserRow[]).map((u) => u.id);
    for (const p of people) expect(ids).toContain(p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const filtered = await admin.get(`/api/admin/users/?q=${USER_TAG}.clan4`);
    expect((filtered.body as AdminUserRow[]).map((u) => u.first_name)).toEqual(['Član 4', 'Član 40', 'Član 41', 'Član 42', 'Član 43', 'Član 44']);
  });

  it('answers 400 with a Serbian message for bad input, never a 500', async () => {
    const cases: [string, string][] = [
      ['page=0', 'Broj stranice nije ispravan.'],
      ['page=-2', 'Broj stranice nije ispravan.'],
      ['page=dva', 'Broj stranice nije ispravan.'],
      ['page=1&page=2', 'Broj stranice nije ispravan.'],
      ['page=1&page_size=0', 'Veličina stranice nije ispravna.'],
      ['page=1&page_size=x', 'Veličina stranice nije ispravna.'],
      [`q=${'a'.repeat(101)}`, 'Pretraga korisnika može imati najviše 100 karaktera.'],
      ['q=a&q=b', 'Parametri pretrage nisu ispravni.'],
    ];
    for (const [q, detail] of cases) {
      const res = await admin.get(`/api/admin/users/?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.detail, q).toBe(detail);
    }
    // 100 characters after trimming is fine.
    expect((await admin.get(`/api/admin/users/?q=${encodeURIComponent(` ${'a'.repeat(100)} `)}&page=1`)).status).toBe(200);
  });

  it('stays admin-only with the new parameters', async () => {
    expect((await user.get(`/api/admin/users/?q=${USER_TAG}&page=1`)).status).toBe(403);
    // Bad input from a non-admin is refused before it is parsed: no hint that the parameters exist.
    expect((await user.get('/api/admin/users/?page=0')).status).toBe(403);
  });
});
