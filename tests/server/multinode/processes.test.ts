/**
 * Two real server processes (server/index.ts bundled as for the crash tests) on one DATA_DIR and one Redis:
 * the fan-out and the session changes cross process boundaries, not only app instances in one process.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BidPlacedEvent } from '@shared/schemas/bids';
import { openDatabase, type DbHandle } from '../../../server/db/connection';
import { hashPassword } from '../../../server/features/accounts/passwords';
import { freePort, tempDataDir } from '../../support/app';
import { ApiClient } from '../../support/http';
import { dropRedisPrefix, requireRedis, TEST_REDIS_URL, uniqueRedisPrefix } from '../../support/multinode';
import { buildServerBundle, insertAuction, insertUser, removeBundle, spawnServer, type ChildServer } from '../../support/reliability-server';
import { collectEvents, emitWithAck, sleep, socketTracker, waitForEvent, type TestSocket } from '../../support/sockets';

const PASSWORD = 'Lozinka123';
const prefix = uniqueRedisPrefix();
const dataDir = tempDataDir('aukcije-processes-');
const sockets = socketTracker();
let bundle: string;
let a: ChildServer;
let b: ChildServer;
let h: DbHandle;
let hash: string;

beforeAll(async () => {
  await requireRedis();
  bundle = await buildServerBundle('multinode');
  const env = { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix };
  // One after the other: the first migrates the shared file.
  a = await spawnServer(bundle, dataDir, await freePort(), env);
  b = await spawnServer(bundle, dataDir, await freePort(), env);
  h = openDatabase(path.join(dataDir, 'aukcije.sqlite'));
  hash = await hashPassword(PASSWORD);
}, 60_000);

afterAll(async () => {
  sockets.closeAll();
  await h?.close();
  await a?.kill9();
  await b?.kill9();
  if (bundle) removeBundle(bundle);
  await dropRedisPrefix(prefix);
});

let counter = 0;
async function user(admin = false) {
  const u = await insertUser(h, `Korisnik ${++counter} ${prefix.slice(-6)}`, hash);
  if (admin) await h.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', u.id).execute();
  return u;
}

async function login(node: ChildServer, email: string): Promise<ApiClient> {
  const client = new ApiClient(node.url);
  const res = await client.post('/api/login/', { email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  return client;
}

async function watch(node: ChildServer, auctionId: number, cookie?: string): Promise<{ socket: TestSocket; seq: number }> {
  const socket = await sockets.connect(node.url, cookie ? { cookie } : {});
  const ack = await emitWithAck(socket, 'auction:join', { auction_id: auctionId });
  if (!ack.ok) throw new Error(ack.detail);
  return { socket, seq: ack.seq };
}

describe('two server processes, one Redis', () => {
  it('bids on either process reach the watchers of both; bids on A reach B in seq order', async () => {
    const seller = await user();
    const auctionId = await insertAuction(h, seller.id, 'Gramofon', Date.now() + 3600_000);
    const [x, y] = [await user(), await user()];
    const xOnA = await login(a, x.email);
    const yOnA = await login(a, y.email);
    const yOnB = await login(b, y.email);
    const onB = await watch(b, auctionId);
    const onA = await watch(a, auctionId);
    const seenB = collectEvents(onB.socket, 'bid:placed');
    const seenA = collectEvents(onA.socket, 'bid:placed');

    for (let i = 0; i < 6; i++) expect((await (i % 2 ? yOnA : xOnA).post('/api/bids/', { auction_item_id: auctionId, amount: 1010 + i * 10 })).status).toBe(201);
    for (let i = 0; i < 50 && seenB.length < 6; i++) await sleep(20);
    expect(seenB.map((e: BidPlacedEvent) => e.seq)).toEqual([1, 2, 3, 4, 5, 6].map((d) => onB.seq + d));

    for (let i = 6; i < 12; i++) expect((await (i % 2 ? yOnB : xOnA).post('/api/bids/', { auction_item_id: auctionId, amount: 1010 + i * 10 })).status).toBe(201);
    for (let i = 0; i < 100 && (seenA.length < 12 || seenB.length < 12); i++) await sleep(20);
    for (const seen of [seenA, seenB]) {
      const seqs = seen.map((e: BidPlacedEvent) => e.seq).sort((p, q) => p - q);
      expect(seqs).toEqual(Array.from({ length: 12 }, (_, i) => onA.seq + 1 + i));
    }
  });

  it('blocking a user on process B ends their user channel on process A', async () => {
    const admin = await login(b, (await user(true)).email);
    const target = await user();
    const targetOnA = await login(a, target.email);
    const seller = await user();
    const auctionId = await insertAuction(h, seller.id, 'Lampa', Date.now() + 3600_000);
    const { socket } = await watch(a, auctionId, targetOnA.cookieHeader);
    const ended = waitForEvent(socket, 'session:ended', 3000);
    expect((await admin.post(`/api/admin/users/${target.id}/block/`)).status).toBe(200);
    expect(await ended).toEqual({ reason: 'blocked' });
  });
});
