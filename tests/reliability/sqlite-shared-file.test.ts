/**
 * Two server processes on one SQLite file (one DATA_DIR) take bids at once. Several nodes are meant for
 * PostgreSQL (docs/scaling.md), but two processes on one file happen (a second start by mistake, a deploy that
 * overlaps the old process) and must not answer 500. kysely began its SQLite transactions with a deferred
 * BEGIN: a bid's transaction reads the auction, then writes; when the other process had written in between,
 * SQLite cannot upgrade the stale read to a write and answers SQLITE_BUSY at once ("database is locked"), the
 * busy timeout notwithstanding. With BEGIN IMMEDIATE (server/db/connection.ts) a transaction takes the write
 * lock first, waiting up to the busy timeout, and never needs the upgrade.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../server/db/connection';
import { hashPassword } from '../../server/features/accounts/passwords';
import { freePort, tempDataDir } from '../support/app';
import { ApiClient } from '../support/http';
import { describeSqliteOnly } from '../support/pg';
import { expectLadder, minFromRefusal, rng } from '../support/reliability-load';
import { buildServerBundle, insertAuction, insertUser, removeBundle, spawnServer, type ChildServer } from '../support/reliability-server';

const BIDDERS = 8;
const AUCTIONS = 2;
const SECONDS = 3;

describeSqliteOnly('two processes on one file are what SQLite can do without PostgreSQL', 'two server processes on one SQLite file', () => {
  let bundle = '';
  let dataDir = '';
  const servers: ChildServer[] = [];
  let h: DbHandle;

  beforeAll(async () => {
    bundle = await buildServerBundle('sqlite-shared-file');
    dataDir = tempDataDir('aukcije-shared-');
    // The second starts once the first has migrated the file.
    for (let i = 0; i < 2; i++) servers.push(await spawnServer(bundle, dataDir, await freePort()));
    h = openDatabase(path.join(dataDir, 'aukcije.sqlite'));
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    for (const s of servers) await s.kill9();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    if (bundle) removeBundle(bundle);
  });

  it(`${BIDDERS} bidders on both processes for ${SECONDS} s: no 500, every 201 stored, prices are the highest bids`, async () => {
    const hash = await hashPassword('Lozinka123');
    const seller = await insertUser(h, 'Prodavac Deljeni', hash);
    const ids: number[] = [];
    for (let i = 0; i < AUCTIONS; i++) ids.push(await insertAuction(h, seller.id, `Deljena ${i}`, Date.now() + 3600_000));
    const bidders = await Promise.all(
      Array.from({ length: BIDDERS }, async (_, i) => {
        const user = await insertUser(h, `Licitant Deljeni ${i + 1}`, hash);
        // Half log in on each process; each bids on both (the session is in the shared file).
        const api = new ApiClient(servers[i % 2].url);
        expect((await api.post('/api/login/', { email: user.email, password: 'Lozinka123' })).status).toBe(200);
        await api.ensureCsrf();
        return { id: user.id, api, other: new ApiClient(servers[(i + 1) % 2].url) };
      }),
    );
    for (const b of bidders) for (const [k, v] of b.api.cookies) b.other.cookies.set(k, v);

    const statuses = new Map<number, number>();
    const accepted = new Map<number, number[]>(ids.map((id) => [id, []]));
    const errors: string[] = [];
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      bidders.map(async (b, i) => {
        const rand = rng(i + 1);
        const known = new Map<number, number>(ids.map((id) => [id, 1010]));
        for (let n = 0; Date.now() < until; n++) {
          const auction = ids[Math.floor(rand() * ids.length)];
          const amount = known.get(auction)! + 10 * Math.floor(rand() * 3);
          const res = await (n % 2 ? b.other : b.api).post('/api/bids/', { auction_item_id: auction, amount });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 201) {
            accepted.get(auction)!.push(res.body.id);
            known.set(auction, amount + 10);
          } else if (res.status === 400 && minFromRefusal(res.body) !== null) known.set(auction, minFromRefusal(res.body)!);
          else errors.push(`${res.status} ${res.text.slice(0, 120)}`);
        }
      }),
    );
    console.info(`[reliability] two processes on one SQLite file: answers by status ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(errors).toEqual([]);
    expect(statuses.get(201) ?? 0).toBeGreaterThan(10);
    for (const id of ids) {
      const stored = await h.db.selectFrom('bids').select(['id', 'bidder_id', 'amount', 'created_at']).where('auction_id', '=', id).orderBy('id').execute();
      expect(stored.map((s) => s.id)).toEqual([...accepted.get(id)!].sort((x, y) => x - y));
      expectLadder(stored, 1000);
      const row = await h.db.selectFrom('auctions').select(['current_price', 'bid_count']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toEqual({ current_price: stored.at(-1)?.amount ?? 1000, bid_count: stored.length });
    }
  }, 60_000);
});
