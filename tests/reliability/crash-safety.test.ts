/**
 * Issue 7 §9: the real server (a child process) is killed with SIGKILL at random moments of a bid load and
 * restarted on the same DATA_DIR (and, under `npm run test:pg`, the same PostgreSQL database). After every kill:
 * on SQLite `PRAGMA integrity_check` is ok (PostgreSQL recovers its own WAL: a node's crash is not its), every bid that got a
 * 201 is stored, each bid's transaction is whole (price, bid count, seq, idempotency key), the server
 * answers within 1 s of the spawn; requests lost in the crash are retried with their Idempotency-Key and
 * never bid twice; auctions that ended during the downtime (or around a kill) close exactly once.
 * Quick: 3 kills; full (TEST_FULL=1): 25.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Transaction } from 'kysely';
import type { DbHandle } from '../../server/db/connection';
import type { Database } from '../../server/db/types';
import { hashPassword } from '../../server/features/accounts/passwords';
import { freePort, tempDataDir } from '../support/app';
import { ApiClient } from '../support/http';
import { sleep } from '../support/sockets';
import { FULL, expectLadder, minFromRefusal, rng } from '../support/reliability-load';
import { buildServerBundle, insertAuction, insertUser, removeBundle, spawnServer, type ChildServer } from '../support/reliability-server';
import { childServerDatabase, onPostgres } from '../support/pg';
import type { BodyOf } from '../support/contract';

const KILLS = FULL ? 25 : 3;
const BIDDERS = 6;
const HOT = 3;
const START = 1000;
const PASSWORD = 'Lozinka123';
/** design.md: the server answers within 1 s of a restart. */
const READY_BUDGET_MS = 1000;

interface Req {
  cycle: number;
  bidder: number;
  auction: number;
  amount: number;
  key: string;
  /** 'lost' = the connection died with the server: no answer. */
  status: number | 'lost';
  body: BodyOf<'POST', '/api/bids/'> | null;
  replayed: boolean;
}

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const f of cleanup.reverse()) await f();
});

describe(`crash safety (kill -9 × ${KILLS} during a bid load)`, () => {
  it('loses no acknowledged bid, stays intact, restarts within 1 s, retries never bid twice, closes exactly once', async () => {
    const bundle = await buildServerBundle('crash');
    cleanup.push(() => removeBundle(bundle));
    const dataDir = tempDataDir('aukcije-crash-');
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const store = await childServerDatabase(dataDir);
    cleanup.push(() => store.drop());
    const openDatabase = () => store.open();
    const port = await freePort();
    const rand = rng(9_000_000 + KILLS);
    let server: ChildServer = await spawnServer(bundle, dataDir, port, store.env);
    cleanup.push(() => server.kill9());

    // The world, written straight into the database the server uses (SQLite's WAL: two processes are fine).
    const setup = await openDatabase();
    const hash = await hashPassword(PASSWORD);
    const seller = await insertUser(setup, 'Prodavac Pad', hash);
    const people = [];
    for (let i = 0; i < BIDDERS; i++) people.push(await insertUser(setup, `Licitant Pad ${i + 1}`, hash));
    const hot: number[] = [];
    for (let i = 0; i < HOT; i++) hot.push(await insertAuction(setup, seller.id, `Vruća ${i + 1}`, Date.now() + 24 * 3600_000));
    await setup.close();

    const clients = await Promise.all(
      people.map(async (p) => {
        const api = new ApiClient(server.url);
        const res = await api.post('/api/login/', { email: p.email, password: PASSWORD });
        if (res.status !== 200) throw new Error(`login ${res.status}`);
        await api.ensureCsrf();
        return { id: p.id, api };
      }),
    );

    const requests: Req[] = [];
    const known = new Map(hot.map((id) => [id, START]));
    const closers: { id: number; winner: number | null; endMs: number }[] = [];
    const restarts: Pick<ChildServer, 'readyMs' | 'readyCpuMs' | 'loadPerCpu'>[] = [];
    let inFlightCommitted = 0;
    let checks = 0;

    const send = async (c: (typeof clients)[number], r: Omit<Req, 'status' | 'body' | 'replayed'>): Promise<Req> => {
      let out: Req;
      try {
        const res = await c.api.post('/api/bids/', { auction_item_id: r.auction, amount: r.amount }, { headers: { 'idempotency-key': r.key } });
        out = { ...r, status: res.status, body: res.body, replayed: res.headers.get('idempotent-replayed') === 'true' };
      } catch {
        out = { ...r, status: 'lost', body: null, replayed: false };
      }
      requests.push(out);
      if (out.status === 201) known.set(r.auction, Math.max(known.get(r.auction)!, out.body!.current_price));
      else if (out.status === 400) known.set(r.auction, Math.max(known.get(r.auction)!, (minFromRefusal(out.body) ?? 0) - 10));
      return out;
    };

    /** Everything that must hold in the file after a crash (and at the end). */
    const checkFile = async (h: DbHandle, when: string) => {
      checks += 1;
      if (!onPostgres) {
        expect(h.sqlite.pragma('integrity_check'), when).toEqual([{ integrity_check: 'ok' }]);
        expect(h.sqlite.pragma('foreign_key_check'), when).toEqual([]);
      }
      const bids = await h.db.selectFrom('bids').select(['id', 'auction_id', 'bidder_id', 'amount', 'created_at']).where('auction_id', 'in', hot).orderBy('id').execute();
      const byId = new Map(bids.map((b) => [b.id, b]));
      // Every acknowledged bid is there, as acknowledged.
      for (const r of requests.filter((x) => x.status === 201)) {
        expect(byId.get(r.body!.id), `${when}: acknowledged bid ${r.body!.id}`).toMatchObject({ auction_id: r.auction, bidder_id: r.bidder, amount: r.amount });
      }
      // Each bid's transaction is whole: the auction row and the idempotency key moved with it.
      for (const id of hot) {
        const ladder = bids.filter((b) => b.auction_id === id);
        expectLadder(ladder, START);
        const row = await h.db.selectFrom('auctions').select(['current_price', 'bid_count', 'seq']).where('id', '=', id).executeTakeFirstOrThrow();
        expect(row, `${when}: auction ${id}`).toEqual({ current_price: ladder.length ? ladder[ladder.length - 1].amount : START, bid_count: ladder.length, seq: ladder.length });
      }
      const keys = await h.db.selectFrom('idempotency_keys').select(['status', 'body']).where('status', '=', 201).execute();
      const keyed = keys.map((k) => JSON.parse(k.body).id as number).sort((x, y) => x - y);
      expect(keyed, `${when}: one stored 201 answer per bid`).toEqual(bids.map((b) => b.id));
      // Closing is exactly once, never half done. Read as one snapshot: after a restart the server's closer runs
      // while this checks, and a close committed between a row's read and its notifications' read would look
      // half done (PostgreSQL: REPEATABLE READ; SQLite: the transaction holds the write lock).
      await h.db.transaction().setIsolationLevel('repeatable read').execute(async (tx) => {
        for (const c of closers) await checkClose(tx, c, when);
      });
    };

    const checkClose = async (tx: Transaction<Database>, c: (typeof closers)[number], when: string) => {
      const row = await tx.selectFrom('auctions').select(['status', 'winner_id']).where('id', '=', c.id).executeTakeFirstOrThrow();
      const notes = await tx.selectFrom('notifications').select(['kind', 'user_id']).where('auction_id', '=', c.id).execute();
      const ended = notes.filter((n) => n.kind === 'auction_ended');
      const won = notes.filter((n) => n.kind === 'won');
      if (row.status === 'active') expect([ended.length, won.length], `${when}: open auction ${c.id} notified`).toEqual([0, 0]);
      else {
        expect(row.winner_id).toBe(c.winner);
        expect(ended.map((n) => n.user_id), `${when}: auction ${c.id} ended`).toEqual([seller.id]);
        expect(won.map((n) => n.user_id)).toEqual(c.winner ? [c.winner] : []);
      }
    };

    for (let cycle = 0; cycle < KILLS; cycle++) {
      const killAfter = 120 + Math.floor(rand() * 480);
      {
        // Auctions that end while this server runs, some right around the kill.
        const h = await openDatabase();
        for (let i = 0; i < 2; i++) {
          const endMs = Date.now() + Math.floor(rand() * (killAfter + 100));
          const winner = i === 0 ? clients[Math.floor(rand() * BIDDERS)].id : null;
          closers.push({ id: await insertAuction(h, seller.id, `Kraj ${cycle}.${i}`, endMs, winner ? { bidder: winner, amount: 1500 } : undefined), winner, endMs });
        }
        await h.close();
      }

      let stop = false;
      let n = 0;
      const load = Promise.all(
        clients.map(async (c, b) => {
          while (!stop) {
            const auction = hot[Math.floor(rand() * HOT)];
            const amount = known.get(auction)! + 10 * (1 + Math.floor(rand() * 3));
            const r = await send(c, { cycle, bidder: c.id, auction, amount, key: `k${cycle}-${b}-${n++}` });
            if (r.status === 'lost') return;
          }
        }),
      );
      await sleep(killAfter);
      await server.kill9();
      stop = true;
      await load;

      // Auctions that end while the server is down.
      {
        const h = await openDatabase();
        const winner = clients[cycle % BIDDERS].id;
        closers.push({ id: await insertAuction(h, seller.id, `Dok je server pao ${cycle}`, Date.now() + 5, { bidder: winner, amount: 2000 }), winner, endMs: Date.now() + 5 });
        // Every other cycle the file is checked by a fresh connection before the server recovers it.
        if (cycle % 2 === 0) await checkFile(h, `after kill ${cycle + 1}`);
        await h.close();
      }
      await sleep(20);

      server = await spawnServer(bundle, dataDir, port, store.env);
      restarts.push({ readyMs: server.readyMs, readyCpuMs: server.readyCpuMs, loadPerCpu: server.loadPerCpu });
      if (cycle % 2 === 1) {
        const h = await openDatabase();
        await checkFile(h, `after restart ${cycle + 1}`);
        await h.close();
      }

      // The clients whose answer was lost retry with the same key: a bid committed before the crash is
      // answered from its key (same bid), one that was not is placed now. Either way: at most one bid.
      for (const lost of requests.filter((r) => r.cycle === cycle && r.status === 'lost')) {
        const c = clients.find((x) => x.id === lost.bidder)!;
        const retry = await send(c, { ...lost, cycle });
        expect(retry.status === 201 || retry.status === 400).toBe(true);
        if (retry.replayed) inFlightCommitted += 1;
      }
    }

    // The last run closes whatever is due; then the file holds every promise.
    const lastEnd = Math.max(...closers.map((c) => c.endMs));
    await sleep(Math.max(0, lastEnd - Date.now()) + 1500);
    await server.kill9();
    const h = await openDatabase();
    try {
      await checkFile(h, 'at the end');
      const open = await h.db.selectFrom('auctions').select('id').where('id', 'in', closers.map((c) => c.id)).where('status', '!=', 'ended').execute();
      expect(open).toEqual([]);
    } finally {
      await h.close();
    }

    const acked = requests.filter((r) => r.status === 201).length;
    const lost = requests.filter((r) => r.status === 'lost').length;
    const sorted = restarts.map((r) => r.readyMs).sort((x, y) => x - y);
    const cpu = restarts.map((r) => r.readyCpuMs ?? 0).sort((x, y) => x - y);
    console.info(
      `[reliability] crash safety: ${KILLS} kills, ${requests.length} requests, ${acked} acknowledged (all stored), ${lost} lost in crashes ` +
        `(${inFlightCommitted} had committed: their retry replayed the stored answer), ${closers.length} auctions closed exactly once, ` +
        `${checks} file checks ok, restart ready in ms: median ${Math.round(sorted[sorted.length >> 1])}, max ${Math.round(sorted[sorted.length - 1])} ` +
        `(CPU ms median ${cpu[cpu.length >> 1]}, max ${cpu[cpu.length - 1]}; load per CPU max ${Math.max(...restarts.map((r) => r.loadPerCpu)).toFixed(1)})`,
    );
    // The server needs under 1 s of CPU to answer after a restart (median over the restarts: the machine
    // is shared); on a machine that is not oversubscribed (load per CPU < 1) every restart must also answer
    // within 1 s of wall time.
    if (cpu[0] !== 0) expect(cpu[cpu.length >> 1]).toBeLessThan(READY_BUDGET_MS);
    for (const r of restarts) if (r.loadPerCpu < 1) expect(r.readyMs).toBeLessThan(READY_BUDGET_MS);
  }, 300_000);
});
