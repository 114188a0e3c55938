/**
 * The join snapshots' promise (issue 30, server/features/auctions/snapshot-cache.ts), as one suite run on one node
 * and on two: a visitor's `auction:join` on the reading node, after visitors joined that auction there (so the
 * cache is warm), shows a change made on the writing node as soon as that change's answer arrived, with the seq
 * of that change, and the socket then gets every later event; the fields that depend on the viewer never reach
 * another viewer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AuctionJoinAck } from '@shared/socket-events';
import type { AuctionDetail } from '@shared/schemas/auctions';
import type { TestServer } from './app';
import { createAuction } from './auctions';
import { createUser, loginAs } from './factories';
import { bid } from './marketplace';
import { emitWithAck, socketTracker, waitForEvent } from './sockets';

type Joined = { seq: number; auction: AuctionDetail };

export function joinSnapshotsSuite(nodes: () => { reader: TestServer; writer: TestServer }): void {
  const sockets = socketTracker();
  afterEach(sockets.closeAll);

  async function join(t: TestServer, auctionId: number, cookie?: string): Promise<Joined & { socket: Awaited<ReturnType<typeof sockets.connect>> }> {
    const socket = await sockets.connect(t.url, cookie ? { cookie } : {});
    const ack: AuctionJoinAck = await emitWithAck(socket, 'auction:join', { auction_id: auctionId });
    if (!ack.ok) throw new Error(ack.detail);
    return { socket, seq: ack.seq, auction: ack.auction };
  }

  /** Two visitors join on the reading node: the second is served what the first read. */
  async function warm(auctionId: number): Promise<Joined> {
    const { reader } = nodes();
    const first = await join(reader, auctionId);
    const second = await join(reader, auctionId);
    expect({ seq: second.seq, auction: second.auction }).toEqual({ seq: first.seq, auction: first.auction });
    return second;
  }

  async function listed(opts: { reserve_price?: number } = {}) {
    const { writer } = nodes();
    const seller = await createUser(writer.ctx);
    const auction = await createAuction(writer.ctx, seller.id, { starting_price: 1000, ...opts });
    return { seller, auction };
  }

  describe('auction:join (visitor, warm)', () => {
    it("shows a bid accepted on the writing node in the very next join, with the bid's seq, and hears the next bid", async () => {
      const { reader, writer } = nodes();
      const { auction } = await listed();
      const before = await warm(auction.id);
      expect(before.auction).toMatchObject({ current_price: 1000, bid_count: 0 });

      const bidder = await loginAs(writer.url, await createUser(writer.ctx));
      expect((await bid(bidder, auction.id, 1010)).status).toBe(201);
      const after = await join(reader, auction.id);
      expect(after.seq).toBe(before.seq + 1);
      expect(after.auction).toMatchObject({ current_price: 1010, bid_count: 1 });

      const next = waitForEvent(after.socket, 'bid:placed', 5000);
      expect((await bid(bidder, auction.id, 1020)).status).toBe(201);
      expect(await next).toMatchObject({ seq: after.seq + 1, current_price: 1020 });
    });

    it("shows a comment's seq (no price moved) in the very next join, and the socket hears the next comment", async () => {
      const { reader, writer } = nodes();
      const { auction } = await listed();
      const before = await warm(auction.id);
      const commenter = await loginAs(writer.url, await createUser(writer.ctx));
      const comment = (content: string) => commenter.post('/api/comments/create/', { auction_item_id: auction.id, content });
      expect((await comment('Prvo pitanje')).status).toBe(201);
      const after = await join(reader, auction.id);
      expect(after.seq).toBe(before.seq + 1);

      const next = waitForEvent(after.socket, 'comment:created', 5000);
      expect((await comment('Drugo pitanje')).status).toBe(201);
      expect(await next).toMatchObject({ seq: after.seq + 1 });
    });

    it('refuses a join of an auction deleted on the writing node', async () => {
      const { reader, writer } = nodes();
      const { seller, auction } = await listed();
      await warm(auction.id);
      const api = await loginAs(writer.url, seller);
      expect((await api.delete(`/api/auctionItems/delete/${auction.id}/`)).status).toBe(204);
      const socket = await sockets.connect(reader.url);
      expect(await emitWithAck(socket, 'auction:join', { auction_id: auction.id })).toMatchObject({ ok: false });
    });
  });

  describe("the viewer's own fields", () => {
    it("a seller's reserve and a watcher's `watched` never reach a visitor, and a visitor's snapshot never reaches them", async () => {
      const { reader, writer } = nodes();
      const { seller, auction } = await listed({ reserve_price: 5000 });
      const watcherUser = await createUser(writer.ctx);
      const watcher = await loginAs(writer.url, watcherUser);
      expect((await watcher.post('/api/watchlist/', { auction_item_id: auction.id })).status).toBe(201);
      const sellerApi = await loginAs(reader.url, seller);
      const watcherOnReader = await loginAs(reader.url, watcherUser);

      // The viewers first (were anything of theirs stored, the visitors would get it), then visitors, then the viewers again.
      const sellerFirst = await join(reader, auction.id, sellerApi.cookieHeader);
      expect(sellerFirst.auction).toMatchObject({ reserve_price: 5000, has_reserve: true });
      expect((await join(reader, auction.id, watcherOnReader.cookieHeader)).auction.watched).toBe(true);
      const visitor = await warm(auction.id);
      expect(visitor.auction).not.toHaveProperty('reserve_price');
      expect(visitor.auction).toMatchObject({ watched: false, viewer_blocked: false, has_reserve: true });
      expect((await join(reader, auction.id, sellerApi.cookieHeader)).auction).toMatchObject({ reserve_price: 5000 });
      expect((await join(reader, auction.id, watcherOnReader.cookieHeader)).auction.watched).toBe(true);
    });
  });
}
