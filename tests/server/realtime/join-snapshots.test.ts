/**
 * The visitors' join snapshots on one node (issue 30): their promise (tests/support/join-snapshots.ts), and that
 * a second visitor's join of an unchanged auction is served without SQL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser } from '../../support/factories';
import { joinSnapshotsSuite } from '../../support/join-snapshots';
import { actor } from '../../support/marketplace';
import { emitWithAck, socketTracker, waitForEvent } from '../../support/sockets';
import { onPostgres } from '../../support/pg';
import type { AuctionJoinAck } from '@shared/socket-events';
import { updatedEvent } from '../../../server/features/auctions/auction-edits.service';
import { recordStatementsOf, type StatementLog } from '../../support/statements';
import { ENTRY_TTL_MS } from '../../../server/features/auctions/list-cache';
import { auctionsNamed } from '../../../server/features/auctions/snapshot-cache';
import type { DomainEvent } from '../../../server/events';

let t: TestServer;
let log: StatementLog;
const sockets = socketTracker();
beforeAll(async () => {
  t = await startTestServer();
  log = recordStatementsOf(t.ctx);
});
afterEach(sockets.closeAll);
afterAll(async () => {
  log?.stop();
  await t?.close();
});

joinSnapshotsSuite(() => ({ reader: t, writer: t }));

describe('auction:join from the cache', () => {
  it("a second visitor's join of the same unchanged auction reads no SQL; a logged-in viewer's still reads", async () => {
    const seller = await createUser(t.ctx);
    const auction = await createAuction(t.ctx, seller.id, { starting_price: 1000 });
    const join = async (cookie?: string) => {
      const socket = await sockets.connect(t.url, cookie ? { cookie } : {});
      log.reset();
      const ack = await emitWithAck(socket, 'auction:join', { auction_id: auction.id });
      if (!ack.ok) throw new Error(ack.detail);
      return { statements: log.sources.length, price: ack.auction.current_price };
    };
    expect((await join()).statements).toBeGreaterThan(0);
    expect(await join()).toEqual({ statements: 0, price: 1000 });
    expect(await join()).toEqual({ statements: 0, price: 1000 });
    // A change no event announces (written straight into the database): a viewer reads it at once, a visitor
    // once the entry expired.
    await t.ctx.db.updateTable('auctions').set({ current_price: 1500 }).where('id', '=', auction.id).execute();
    const { api } = await actor(t);
    const viewer = await join(api.cookieHeader);
    expect(viewer.price).toBe(1500);
    expect(viewer.statements).toBeGreaterThan(0);
    expect(await join()).toEqual({ statements: 0, price: 1000 });
    await new Promise((r) => setTimeout(r, ENTRY_TTL_MS + 100));
    expect(await join()).toMatchObject({ price: 1500 });
  });
});

describe('auction:join, the ack of a cached snapshot', () => {
  it("every visitor's join ack (the first, read; the next ones, from the cache with its JSON made once) carries what a visitor's GET of the auction answers", async () => {
    const seller = await createUser(t.ctx);
    const auction = await createAuction(t.ctx, seller.id, { starting_price: 1000, description: 'Opis sa "navodnicima", \\ i \u2028 ćčšđž' });
    const detail: unknown = await (await fetch(`${t.url}/api/auction/${auction.id}/`)).json();
    for (let i = 0; i < 3; i++) {
      const socket = await sockets.connect(t.url);
      const ack = await emitWithAck(socket, 'auction:join', { auction_id: auction.id });
      expect(ack).toMatchObject({ ok: true, seq: expect.any(Number), server_time: expect.any(Number) });
      expect((ack as Extract<AuctionJoinAck, { ok: true }>).auction).toEqual(detail);
    }
  });
});

describe('auction:join while a change commits', () => {
  it("a visitor's snapshot read while another change committed (and was announced) is not kept: the next join shows the change", async () => {
    const seller = await createUser(t.ctx);
    const auction = await createAuction(t.ctx, seller.id, { title: 'Stari naslov' });
    const first = await sockets.connect(t.url);
    const updated = waitForEvent(first, 'auction:updated', 5000);
    // Right after the join's read of the auction, the seller's edit commits and is announced (the write and its
    // event as auction-edits.service.ts makes them): the join answers the older state with the older seq, and
    // its socket, already in the room, hears the edit.
    let changed = false;
    log.afterEach = (source) => {
      if (changed || !/from "auctions" as "a"/.test(source)) return;
      changed = true;
      const announce = (seq: number) => t.ctx.events.publish([updatedEvent(auction.id, seq, { title: 'Novi naslov' })]);
      if (onPostgres) {
        return (async () => {
          const row = await t.ctx.db.updateTable('auctions').set((eb) => ({ title: 'Novi naslov', seq: eb('seq', '+', 1) })).where('id', '=', auction.id).returning('seq').executeTakeFirstOrThrow();
          await announce(row.seq);
        })();
      }
      const row = t.ctx.sqlite.prepare("UPDATE auctions SET title = 'Novi naslov', seq = seq + 1 WHERE id = ? RETURNING seq").get(auction.id) as { seq: number };
      void announce(row.seq);
    };
    let ack: AuctionJoinAck;
    try {
      ack = await emitWithAck(first, 'auction:join', { auction_id: auction.id });
    } finally {
      log.afterEach = undefined;
    }
    expect(changed).toBe(true);
    expect(ack).toMatchObject({ ok: true, seq: auction.seq, auction: { title: 'Stari naslov' } });
    expect(await updated).toMatchObject({ seq: auction.seq + 1 });

    const second = await sockets.connect(t.url);
    expect(await emitWithAck(second, 'auction:join', { auction_id: auction.id })).toMatchObject({ ok: true, seq: auction.seq + 1, auction: { title: 'Novi naslov' } });
  });
});

describe('which committed events drop a snapshot', () => {
  it('every event that names an auction (also types other branches add), both auctions of a relist; not notifications or sessions', () => {
    const named = (type: string) => ({ type, payload: { auction_id: 7 } }) as unknown as DomainEvent;
    for (const type of ['bid:placed', 'comment:created', 'comment:deleted', 'auction:closed', 'auction:deleted', 'auction:updated', 'image:added']) {
      expect(auctionsNamed(named(type)), type).toEqual([7]);
    }
    expect(auctionsNamed({ type: 'auction:relisted', auctionId: 9, relistedFrom: 7, sellerId: 1 })).toEqual([9, 7]);
    expect(auctionsNamed({ type: 'notifications:read', userId: 3, unread: 0 })).toEqual([]);
    expect(auctionsNamed({ type: 'session:ended', userId: 3 })).toEqual([]);
  });
});
