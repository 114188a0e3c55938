import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser, loginAs } from '../../support/factories';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { escapeLike, normaliseForSearch } from '@shared/rules/search';

describe('normaliseForSearch', () => {
  it.each([
    ['Šešir', 'sesir'],
    ['ĐAK', 'djak'],
    ['Ćevapi i čevapčići', 'cevapi i cevapcici'],
    ['Žuti džemper', 'zuti dzemper'],
    ['ТЕЛЕФОН', 'telefon'],
    ['Љубав и њушка', 'ljubav i njuska'],
    ['џеп ђак ћирилица', 'dzep djak cirilica'],
    ['  Café   crème ', 'cafe creme'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseForSearch(input)).toBe(expected);
  });

  it('makes both scripts meet', () => {
    expect(normaliseForSearch('Шешир од филца')).toBe(normaliseForSearch('Šešir od filca'));
  });

  it('escapes LIKE wildcards', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });
});

describe('GET /api/auctions/?q=', () => {
  let t: TestServer;
  let c: ApiClient;
  const a: Record<string, number> = {};
  beforeAll(async () => {
    t = await startTestServer();
    c = new ApiClient(t.url);
    const s = await createUser(t.ctx);
    a.sesir = (await createAuction(t.ctx, s.id, { title: 'Šešir od filca', description: 'Braon, veličina 57' })).id;
    a.djak = (await createAuction(t.ctx, s.id, { title: 'Torba', description: 'Za đaka prvaka' })).id;
    a.cevapi = (await createAuction(t.ctx, s.id, { title: 'Roštilj', description: 'Idealan za ćevapi' })).id;
    a.telefon = (await createAuction(t.ctx, s.id, { title: 'Mobilni telefon Samsung', description: 'Ispravan' })).id;
    a.cyr = (await createAuction(t.ctx, s.id, { title: 'Стари телевизор', description: 'Ради одлично' })).id;
    a.percent = (await createAuction(t.ctx, s.id, { title: 'Popust 50% na sve', description: 'x' })).id;
    a.ended = (await createAuction(t.ctx, s.id, { title: 'Šešir slamnati', description: 'y', endsInMs: -1000 })).id;
  });
  afterAll(async () => {
    await t.close();
  });

  const found = async (q: string) => (await c.get(`/api/auctions/?q=${encodeURIComponent(q)}`)).body.map((x: { id: number }) => x.id);

  it('ignores case', async () => {
    expect(await found('ŠEŠIR')).toEqual([a.sesir]);
    expect(await found('samsung')).toEqual([a.telefon]);
  });

  it('ignores Serbian diacritics: sesir, djak, cevapi', async () => {
    expect(await found('sesir')).toEqual([a.sesir]);
    expect(await found('djak')).toEqual([a.djak]);
    expect(await found('đak')).toEqual([a.djak]);
    expect(await found('cevapi')).toEqual([a.cevapi]);
  });

  it('matches across scripts: Cyrillic query finds Latin text and back', async () => {
    expect(await found('телефон')).toEqual([a.telefon]);
    expect(await found('televizor')).toEqual([a.cyr]);
    expect(await found('odlicno')).toEqual([a.cyr]);
  });

  it('matches the description as a substring too', async () => {
    expect(await found('prvak')).toEqual([a.djak]);
    expect(await found('ličina 5')).toEqual([a.sesir]);
  });

  it('treats % and _ literally', async () => {
    expect(await found('50%')).toEqual([a.percent]);
    expect(await found('%')).toEqual([a.percent]);
    expect(await found('_')).toEqual([]);
  });

  it('finds nothing for an unknown word, and everything open for an empty q', async () => {
    expect(await found('bicikl')).toEqual([]);
    expect((await found('')).length).toBe(6);
  });

  it('works with paging, and in own lists (ended included)', async () => {
    const paged = (await c.get('/api/auctions/?q=sesir&page=1')).body;
    expect(paged).toMatchObject({ count: 1, next: null, previous: null });
    const seller = (await t.ctx.db.selectFrom('auctions').select('seller_id').where('id', '=', a.sesir).executeTakeFirstOrThrow()).seller_id;
    const user = await t.ctx.db.selectFrom('users').selectAll().where('id', '=', seller).executeTakeFirstOrThrow();
    const me = await loginAs(t.url, { email: user.email, password: 'Lozinka123' });
    const mine = (await me.get('/api/my-auctions/?q=sesir')).body.map((x: { id: number }) => x.id);
    expect(mine.sort()).toEqual([a.sesir, a.ended].sort());
  });

  it('refuses a query over 200 characters with 400', async () => {
    expect((await c.get(`/api/auctions/?q=${'a'.repeat(201)}`)).status).toBe(400);
  });
});
