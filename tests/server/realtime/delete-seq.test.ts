import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seqVerdict } from '@shared/socket-events';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser, loginAs } from '../../support/factories';
import { recordStatementsOf } from '../../support/statements';
import { collectEvents, emitWithAck, sleep, waitForEvent, type TestSocket, socketTracker } from '../../support/sockets';
import { onPostgres } from '../../support/pg';

/** DELETE /api/auctionItems/delete/{id}/ takes its `auction:deleted` seq inside the transaction that deletes. */
let t: TestServer;
const sockets = socketTracker();

beforeAll(async () => {
  t = await startTestServer({ SOFT_CLOSE_SECONDS: '0' });
});
afterEach(sockets.closeAll);
afterAll(async () => {
  await t.close();
});

async function joined(socket: TestSocket, auctionId: number): Promise<number> {
  const r = await emitWithAck(socket, 'auction:join', { auction_id: auctionId });
  if (!r.ok) throw new Error(r.detail);
  return r.seq;
}

const seqOf = async (id: number) => (await t.ctx.db.selectFrom('auctions').select('seq').where('id', '=', id).executeTakeFirst())?.seq;

describe('auction:deleted seq', () => {
  it('follows a change that commits between the permission check and the delete (last seq + 1, never a repeat)', async () => {
    const seller = await createUser(t.ctx);
    const sellerApi = await loginAs(t.url, seller);
    const auction = await createAuction(t.ctx, seller.id);
    const watcher = await sockets.connect(t.url);
    const seq0 = await joined(watcher, auction.id);
    const deleted = waitForEvent(watcher, 'auction:deleted');

    // Right after the request reads the auction (to check who may delete it), another process commits a
    // change of it, e.g. a comment: the auction's seq becomes seq0 + 1 and that event is the watchers' last.
    let lastBeforeDelete: number | undefined;
    const log = recordStatementsOf(t.ctx);
    let changed = false;
    log.afterEach = (source) => {
      if (changed || !/^select \* from "auctions" where "id" = (\?|\$1)/.test(source)) return;
      changed = true;
      if (onPostgres) {
        // Awaited by the recorder before the request sees its read's answer: committed in between.
        return (async () => {
          await t.ctx.db.updateTable('auctions').set((eb) => ({ seq: eb('seq', '+', 1) })).where('id', '=', auction.id).execute();
          lastBeforeDelete = await seqOf(auction.id);
        })();
      }
      t.ctx.sqlite.prepare('UPDATE auctions SET seq = seq + 1 WHERE id = ?').run(auction.id);
      lastBeforeDelete = (t.ctx.sqlite.prepare('SELECT seq FROM auctions WHERE id = ?').get(auction.id) as { seq: number }).seq;
    };
    try {
      expect((await sellerApi.delete(`/api/auctionItems/delete/${auction.id}/`)).status).toBe(204);
    } finally {
      log.stop();
    }
    expect(lastBeforeDelete).toBe(seq0 + 1);
    const event = await deleted;
    expect(event).toEqual({ auction_id: auction.id, seq: seq0 + 2 });
    expect(seqVerdict(seq0 + 1, event.seq)).toBe('next');
  });

  it('a refused delete (the auction has bids) emits nothing and leaves the seq as it was; an admin delete then takes the next one', async () => {
    const seller = await createUser(t.ctx);
    const sellerApi = await loginAs(t.url, seller);
    const admin = await createUser(t.ctx, { admin: true });
    const adminApi = await loginAs(t.url, admin);
    const bidder = await createUser(t.ctx);
    const bidderApi = await loginAs(t.url, bidder);
    const auction = await createAuction(t.ctx, seller.id, { starting_price: 1000 });
    expect((await bidderApi.post('/api/bids/', { auction_item_id: auction.id, amount: 1010 })).status).toBe(201);
    const watcher = await sockets.connect(t.url);
    const seq1 = await joined(watcher, auction.id);
    const events = collectEvents(watcher, 'auction:deleted');

    const refused = await sellerApi.delete(`/api/auctionItems/delete/${auction.id}/`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('has_bids');
    await sleep(150);
    expect(events).toEqual([]);
    expect(await seqOf(auction.id)).toBe(seq1);

    expect((await adminApi.delete(`/api/auctionItems/delete/${auction.id}/`)).status).toBe(204);
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]).toEqual({ auction_id: auction.id, seq: seq1 + 1 });
    expect(await seqOf(auction.id)).toBeUndefined();
  });
});
