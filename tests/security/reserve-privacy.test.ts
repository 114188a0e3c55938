/**
 * The reserve amount is the seller's alone (issue 25). One run covers every road an amount could leak by:
 * creating with a reserve (JSON and multipart), the detail and every list as a visitor, a bidder and an admin,
 * the socket snapshot on joining and every socket event to watchers and to members' own rooms, manual bids,
 * maxima that lead below it, a "Kupi odmah", a close below the reserve (with its notifications, REST and
 * live), the bid history, and the server's log at debug level (request lines included). Then the reserve is
 * searched for, as a number and as text (7777, 7.777, "7 777"), in every answer, event and log line. Allowed:
 * the seller's own detail, own cards, own join snapshot and own close notification, and a bid row's amount
 * (the reserve's invariant writes a maximum's row AT the reserve: a row is just a row), i.e. the number under
 * `amount`, `current_price`, `final_price` or `price` where a row has that amount, and the same amount in a bid
 * notification's text ("Iznos: 7.777 din.").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startTestServer, type TestServer } from '../support/app';
import { createUser, loginAs } from '../support/factories';
import { ApiClient } from '../support/http';
import { eventually, watchAuction } from '../support/marketplace';
import { connectSocket, emitWithAck, type TestSocket } from '../support/sockets';
import { closeAuction } from '../../server/features/auctions/closing';

const R = 7777;
const FORMS = [String(R), '7.777', '7 777', '7,777'];
/**
 * Each form as a whole number only: not part of a longer one. A timestamp's "…:57.777Z" or an amount of
 * 17.777 is not the reserve (CI once saw a bid's created_at end in 57.777Z).
 */
const FORM_PATTERNS = FORMS.map((f) => new RegExp(`(?<![0-9])${f.replace(/[.]/g, '\\.')}(?![0-9])`));
const ROW_KEYS = new Set(['amount', 'current_price', 'final_price', 'price']);

interface Seen {
  /** Who saw it: 'seller' (allowed to see the reserve in its own places) or anyone else. */
  who: string;
  where: string;
  value: unknown;
}

const seen: Seen[] = [];
const logLines: string[] = [];
let t: TestServer;
const rowAmounts = new Set<number>();

beforeAll(async () => {
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
  t = await startTestServer({ SOFT_CLOSE_SECONDS: '0' }, { logger });
});
afterAll(async () => {
  await t.close();
});

/** Each client's answers go into `seen`. */
function recording(api: ApiClient, who: string): ApiClient {
  const request = api.request.bind(api);
  api.request = (async (method: string, path: string, body?: unknown, opts?: object) => {
    const res = await request(method, path, body, opts);
    seen.push({ who, where: `${method} ${path} → ${res.status}`, value: res.body });
    return res;
  }) as typeof api.request;
  return api;
}

function listen(socket: TestSocket, who: string) {
  (socket as unknown as { onAny(l: (event: string, ...args: unknown[]) => void): void }).onAny((event, ...args) => seen.push({ who, where: `socket ${event}`, value: args }));
}

/** Where `value` names the reserve, with the JSON path; a row amount under a row key is allowed. */
function leaks(value: unknown, path = '$'): string[] {
  if (typeof value === 'number') return value === R && !(ROW_KEYS.has(path.split('.').at(-1)!) && rowAmounts.has(value)) ? [path] : [];
  if (typeof value === 'string') {
    // A bid amount in a notification's text ("Iznos: 7.777 din.", "Nova cena: …") is a row's, not the reserve.
    const text = rowAmounts.has(R) ? value.replace(/(Iznos|Poslednja ponuda|Nova cena|Prodajna cena|sa ponudom od):? 7\.777 din/g, '') : value;
    return FORM_PATTERNS.some((f) => f.test(text)) ? [`${path}: ${value.slice(0, 200)}`] : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => leaks(v, `${path}.${i}`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaks(v, `${path}.${k}`));
  return [];
}

/** The seller's own places: `reserve_price` of its own detail and cards, and its close notification's text. */
function withoutSellersOwn(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSellersOwn);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'reserve_price') continue;
      if (k === 'message' && typeof v === 'string' && v.includes('je završena bez prodaje: rezervna cena od')) continue;
      out[k] = withoutSellersOwn(v);
    }
    return out;
  }
  return value;
}

describe('the reserve amount never leaves the seller', () => {
  it('is in no answer, event or log line of a whole run except the seller’s own places and bid amounts', async () => {
    const sellerUser = await createUser(t.ctx, { first_name: 'Prodavac Tajna' });
    const users = await Promise.all(['Ana', 'Bojan', 'Ceca'].map((n) => createUser(t.ctx, { first_name: n })));
    const adminUser = await createUser(t.ctx, { first_name: 'Admin', admin: true });
    const seller = recording(await loginAs(t.url, sellerUser), 'seller');
    const [ana, bojan, ceca] = await Promise.all(users.map(async (u, i) => recording(await loginAs(t.url, u), ['ana', 'bojan', 'ceca'][i]!)));
    const admin = recording(await loginAs(t.url, adminUser), 'admin');
    const visitor = recording(new ApiClient(t.url), 'visitor');

    const sockets: TestSocket[] = [];
    const open = async (api: ApiClient | null, who: string) => {
      const s = await connectSocket(t.url, api ? { cookie: api.cookieHeader } : {});
      listen(s, who);
      sockets.push(s);
      return s;
    };
    const sellerSocket = await open(seller, 'seller');
    const others = [await open(ana, 'ana'), await open(bojan, 'bojan'), await open(ceca, 'ceca'), await open(null, 'visitor')];

    const form = { description: 'Opis', current_price: '1000', city: 'Niš', phone_number: '0641234567', category: 'sports' };
    // 1. Bids stay below the reserve, then it closes: no sale.
    const below = (await seller.post('/api/auctionItems/', { ...form, title: 'Ispod', reserve_price: R, buy_now_price: 9000 })).body.id as number;
    // 2. A maximum above the reserve: its row is AT the reserve (a bid amount), then others bid on.
    const met = (await seller.post('/api/auctionItems/', { ...form, title: 'Dostignuta', reserve_price: String(R) })).body.id as number;
    // 3. Multipart, and bought now.
    const fd = new FormData();
    for (const [k, v] of Object.entries({ ...form, title: 'Kupljena', reserve_price: String(R), buy_now_price: '8000' })) fd.append(k, v);
    const bought = (await seller.post('/api/auctionItems/', fd)).body.id as number;

    for (const id of [below, met, bought]) {
      for (const s of [sellerSocket, ...others]) {
        await watchAuction(t, s, id);
        await emitWithAck(s, 'auction:join', { auction_id: id }).then((ack) => seen.push({ who: s === sellerSocket ? 'seller' : 'other', where: `join ${id}`, value: ack }));
      }
    }

    await ana.post('/api/bids/', { auction_item_id: below, amount: 2000 });
    await bojan.put(`/api/auctions/${below}/auto-bid/`, { max_amount: 7000 });
    await ceca.post('/api/bids/', { auction_item_id: below, amount: 7700 });
    await ana.put(`/api/auctions/${below}/auto-bid/`, { max_amount: 7770 });
    await ceca.post(`/api/auctions/${below}/buy-now/`);

    await ana.put(`/api/auctions/${met}/auto-bid/`, { max_amount: 20_000 });
    await bojan.post('/api/bids/', { auction_item_id: met, amount: 9000 });
    await ceca.put(`/api/auctions/${met}/auto-bid/`, { max_amount: 30_000 });

    await bojan.post(`/api/auctions/${bought}/buy-now/`);

    for (const api of [seller, ana, bojan, ceca, admin, visitor]) {
      for (const id of [below, met, bought]) {
        await api.get(`/api/auction/${id}/`);
        await api.get(`/api/bids/${id}/`);
        await api.get(`/api/auctions/${id}/offer_count/`);
      }
      await api.get('/api/auctions/?page=1');
      await api.get('/api/auctions/');
      await api.get('/api/auctions/best/');
      await api.get('/api/all-auction-items/?page=1');
    }
    for (const api of [seller, ana, bojan, ceca]) {
      await api.get('/api/my-auctions/');
      await api.get('/api/auctionItems/');
      await api.get('/api/all-my-biddings/');
      await api.get(`/api/auctions/${below}/auto-bid/`);
    }

    await t.ctx.db.updateTable('auctions').set({ end_date: new Date(Date.now() - 1000).toISOString() }).where('id', 'in', [below, met]).execute();
    await closeAuction(t.ctx, below);
    await closeAuction(t.ctx, met);
    for (const api of [seller, ana, bojan, ceca]) {
      await api.get('/api/notifications/');
      for (const id of [below, met, bought]) await api.get(`/api/auction/${id}/`);
    }
    await eventually(() => seen.some((s) => s.who === 'seller' && s.where === 'socket notification:created' && JSON.stringify(s.value).includes('bez prodaje')));

    // Every row amount of the run (the exception).
    const rows = await t.ctx.db.selectFrom('bids').select('amount').where('auction_id', 'in', [below, met, bought]).execute();
    for (const r of rows) rowAmounts.add(r.amount);
    // The run did reach the places that must hold it: the seller saw it, and a row was written at it.
    expect(rowAmounts.has(R)).toBe(true);
    expect(seen.some((s) => s.who === 'seller' && JSON.stringify(s.value).includes(`"reserve_price":${R}`))).toBe(true);
    expect(seen.some((s) => s.who === 'seller' && JSON.stringify(s.value).includes('rezervna cena od 7.777 din nije dostignuta'))).toBe(true);
    expect(logLines.length).toBeGreaterThan(50);

    const problems = [
      ...seen.filter((s) => s.who !== 'seller').flatMap((s) => leaks(s.value).map((l) => `${s.who} ${s.where}: ${l}`)),
      ...seen.filter((s) => s.who === 'seller').flatMap((s) => leaks(withoutSellersOwn(s.value)).map((l) => `seller ${s.where}: ${l}`)),
      ...logLines.flatMap((line, i) => leaks(JSON.parse(line) as unknown).map((l) => `log line ${i}: ${l}`)),
    ];
    expect(problems).toEqual([]);
    expect(seen.filter((s) => s.who !== 'seller').length).toBeGreaterThan(100);
    for (const s of sockets) s.close();
  }, 60_000);
});
