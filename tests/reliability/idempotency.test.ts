/**
 * The optional `Idempotency-Key` header of POST /api/bids/: a retried bid returns the first answer instead
 * of bidding twice; the key is per user, kept 24 h, and bound to the bid it first came with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/app';
import { createAuction } from '../support/auctions';
import { actor, auctionRow, notificationsOf, type Actor } from '../support/marketplace';
import { collectEvents, connectSocket, emitWithAck, sleep } from '../support/sockets';
import { isoAt } from '../../server/lib/time';

let t: TestServer;
let seller: Actor;
let ana: Actor;
let bojan: Actor;

beforeAll(async () => {
  t = await startTestServer({ SOFT_CLOSE_SECONDS: '0' });
  [seller, ana, bojan] = await Promise.all([
    actor(t, { first_name: 'Prodavac Ključ' }),
    actor(t, { first_name: 'Ana Ključ' }),
    actor(t, { first_name: 'Bojan Ključ' }),
  ]);
});
afterAll(async () => {
  await t?.close();
});

function bidWithKey(who: Actor, auctionId: number, amount: unknown, key?: string, signal?: AbortSignal) {
  const headers: Record<string, string> = key === undefined ? {} : { 'idempotency-key': key };
  if (!signal) return who.api.post<string>('/api/bids/', { auction_item_id: auctionId, amount }, { headers });
  return fetch(`${t.url}/api/bids/`, {
    method: 'POST',
    signal,
    headers: { ...headers, cookie: who.api.cookieHeader, origin: t.url, 'x-csrftoken': who.api.csrfToken()!, 'content-type': 'application/json' },
    body: JSON.stringify({ auction_item_id: auctionId, amount }),
  });
}

const bidsOf = (auctionId: number) => t.ctx.db.selectFrom('bids').selectAll().where('auction_id', '=', auctionId).orderBy('id').execute();

describe('POST /api/bids/ with Idempotency-Key', () => {
  it('answers a retry with the first answer (same status and body) and bids once', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
    const watcher = await connectSocket(t.url);
    const placed = collectEvents(watcher, 'bid:placed');
    await emitWithAck(watcher, 'auction:join', { auction_id: a.id });
    try {
      await ana.api.ensureCsrf();
      const first = await bidWithKey(ana, a.id, 1010, 'kupovina-1');
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const retry = await bidWithKey(ana, a.id, '1010', 'kupovina-1'); // the same bid, as a form would send it
      expect(retry.status).toBe(201);
      expect(retry.text).toBe(first.text);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');

      expect(await bidsOf(a.id)).toHaveLength(1);
      expect(await auctionRow(t, a.id)).toMatchObject({ current_price: 1010, bid_count: 1, seq: a.seq + 1 });
      const forSeller = await notificationsOf(t, seller.user.id, 'new_bid');
      expect(forSeller.filter((n) => n.auction_id === a.id)).toHaveLength(1);
      await sleep(200);
      expect(placed).toHaveLength(1); // the replay announces nothing

      // Later bids by others do not change what the key answers.
      expect((await bidWithKey(bojan, a.id, 1100)).status).toBe(201);
      const late = await bidWithKey(ana, a.id, 1010, 'kupovina-1');
      expect([late.status, late.text]).toEqual([201, first.text]);
      expect(await bidsOf(a.id)).toHaveLength(2);
    } finally {
      watcher.close();
    }
  });

  it('replays a refusal too (the first answer, even after the situation changed)', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
    const low = await bidWithKey(ana, a.id, 1005, 'nisko');
    expect(low.status).toBe(400);
    expect(low.body.amount).toEqual(['Minimalna ponuda je 1010 din']);
    const again = await bidWithKey(ana, a.id, 1005, 'nisko');
    expect([again.status, again.text]).toEqual([400, low.text]);
    expect(await bidsOf(a.id)).toHaveLength(0);
  });

  it('does not double-bid when the same key arrives many times at once', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
    await ana.api.ensureCsrf();
    const answers = await Promise.all(Array.from({ length: 12 }, () => bidWithKey(ana, a.id, 1500, 'dupli-klik')));
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(201));
    expect(new Set(answers.map((r) => r.text)).size).toBe(1);
    expect(answers.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(11);
    const stored = await bidsOf(a.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ bidder_id: ana.user.id, amount: 1500 });
    expect(answers[0].body.id).toBe(stored[0].id);
  });

  it('bids once when the first answer was lost (client gave up) and the client retries', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
    await ana.api.ensureCsrf();
    const ctl = new AbortController();
    const lost = bidWithKey(ana, a.id, 2000, 'izgubljen-odgovor', ctl.signal) as Promise<Response>;
    setTimeout(() => ctl.abort(), 1);
    await lost.then(
      () => undefined,
      () => undefined,
    );
    const retry = await bidWithKey(ana, a.id, 2000, 'izgubljen-odgovor');
    expect(retry.status).toBe(201);
    const stored = await bidsOf(a.id);
    expect(stored).toHaveLength(1);
    expect(retry.body.id).toBe(stored[0].id);
  });

  it('answers 422 with a Serbian message when the key comes back with another bid, and stores nothing', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
    expect((await bidWithKey(ana, a.id, 1010, 'jedan-kljuc')).status).toBe(201);
    const other = await bidWithKey(ana, a.id, 1020, 'jedan-kljuc');
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ detail: 'Ovaj Idempotency-Key je već upotrebljen za drugačiju ponudu.', code: 'idempotency_key_reused' });
    const b = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
    expect((await bidWithKey(ana, b.id, 1010, 'jedan-kljuc')).status).toBe(422); // same amount, other auction
    expect(await bidsOf(a.id)).toHaveLength(1);
    expect(await bidsOf(b.id)).toHaveLength(0);
  });

  it('keeps keys per user: the same key from another user is a new bid', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
    expect((await bidWithKey(ana, a.id, 1010, 'zajednicki')).status).toBe(201);
    const hers = await bidWithKey(bojan, a.id, 1020, 'zajednicki');
    expect(hers.status).toBe(201);
    expect(hers.body.bidder).toBe(bojan.user.id);
    expect(await bidsOf(a.id)).toHaveLength(2);
  });

  it('without a key, the same bid twice is two attempts (the second is too low)', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
    expect((await bidWithKey(ana, a.id, 1010)).status).toBe(201);
    const second = await bidWithKey(ana, a.id, 1010);
    expect(second.status).toBe(400);
    expect(second.body.amount).toEqual(['Minimalna ponuda je 1020 din']);
  });

  it('refuses a malformed key with 400 and a Serbian message, before bidding', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
    for (const key of ['', 'x'.repeat(256), 'sa razmakom', 'tab\tznak', 'latinica-é']) {
      const res = await ana.api.post('/api/bids/', { auction_item_id: a.id, amount: 1010 }, { headers: { 'idempotency-key': key } }).catch(() => null);
      if (!res) continue; // fetch itself refuses some header values (non-ASCII): nothing reached the server
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ detail: 'Zaglavlje Idempotency-Key nije ispravno (1 do 255 vidljivih znakova).', code: 'idempotency_key_invalid' });
    }
    expect(await bidsOf(a.id)).toHaveLength(0);
    // A bad body is the same 400 as without a key, and leaves no key behind.
    const bad = await bidWithKey(ana, a.id, 'mnogo', 'los-iznos');
    expect(bad.status).toBe(400);
    expect(bad.body.amount).toEqual(['Ponuda mora biti ceo broj dinara.']);
    expect((await bidWithKey(ana, a.id, 1010, 'los-iznos')).status).toBe(201);
  });

  it('forgets keys after 24 h: an expired key is a new bid, and the closer prunes old keys at start', async () => {
    const a = await createAuction(t.ctx, seller.user.id, { starting_price: 1000 });
    const old = isoAt(Date.now() - 24 * 3600 * 1000 - 60_000);
    const fake = { status: 201, body: '{"id":1}' };
    await t.ctx.db
      .insertInto('idempotency_keys')
      .values([
        { user_id: ana.user.id, key: 'jucerasnji', request_hash: 'x', ...fake, created_at: old },
        { user_id: bojan.user.id, key: 'star-1', request_hash: 'x', ...fake, created_at: old },
        { user_id: bojan.user.id, key: 'svez', request_hash: 'x', ...fake, created_at: isoAt(Date.now() - 3600_000) },
      ])
      .execute();
    const res = await bidWithKey(ana, a.id, 1010, 'jucerasnji'); // other body than stored: no 422 once expired
    expect(res.status).toBe(201);
    expect(await bidsOf(a.id)).toHaveLength(1);

    // A restart on the same DATA_DIR: the closing job's first round deletes what is older than 24 h.
    const again = await startTestServer({ SOFT_CLOSE_SECONDS: '0' }, { dataDir: t.dataDir });
    try {
      const keys = async () =>
        (await again.ctx.db.selectFrom('idempotency_keys').select('key').where('user_id', '=', bojan.user.id).execute()).map((k) => k.key);
      for (let i = 0; i < 40 && (await keys()).includes('star-1'); i++) await sleep(50);
      expect(await keys()).not.toContain('star-1');
      expect(await keys()).toContain('svez');
    } finally {
      await again.close();
    }
  });
});
