/**
 * Issue 29, "Graceful shutdown": the closer stops between two auctions, never inside a close. A shutdown that
 * comes while the closer is inside a close, in the middle of a batch of overdue auctions, settles only once that
 * close has committed, and no close starts after it; every auction is closed whole (winner, notifications) or
 * left untouched for the next start or another node.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAppDatabase, openDatabase } from '../../../server/db/connection';
import { isoAt } from '../../../server/lib/time';
import { startTestServer } from '../../support/app';
import { createUser } from '../../support/factories';
import { eventually } from '../../support/marketplace';
import { sleep } from '../../support/sockets';
import { onPostgres } from '../../support/pg';

const AUCTIONS = 150;

describe('the closer during a shutdown', () => {
  it('finishes the auction it is closing, starts no other, and leaves the rest whole for later', async () => {
    const t = await startTestServer({ SHUTDOWN_DRAIN_SECONDS: '0', SHUTDOWN_TIMEOUT_SECONDS: '1' });
    const seller = await createUser(t.ctx);
    const bidder = await createUser(t.ctx);

    // Every close runs in its auction's bid lane (features/auctions/closing.ts): count the closes under way, and
    // send the shutdown as the fifth one begins (on SQLite a batch runs without yielding to timers: a shutdown
    // from outside would only come after it).
    let active = 0;
    let started = 0;
    let settled = false;
    let startedAfter = 0;
    let activeAtSettle = -1;
    let shutdown: Promise<void> | undefined;
    const lanes = t.ctx.bidLanes;
    const run = lanes.run.bind(lanes);
    lanes.run = (auctionId, turn) => {
      if (settled) startedAfter += 1;
      active += 1;
      started += 1;
      if (started === 5) shutdown = t.server.shutdown();
      return run(auctionId, turn).finally(() => (active -= 1));
    };

    const due = isoAt(Date.now() - 1000);
    const ids = await t.ctx.db.transaction().execute(async (tx) => {
      const rows = await tx
        .insertInto('auctions')
        .values(
          Array.from({ length: AUCTIONS }, (_, i) => ({
            seller_id: seller.id,
            title: `Kraj ${i}`,
            description: 'Opis',
            category: 'electronics',
            city: 'Beograd',
            phone_number: '0641234567',
            starting_price: 1000,
            current_price: 1010,
            bid_count: 1,
            end_date: due,
            original_end_date: due,
            status: 'active' as const,
            winner_id: null,
            search_text: `kraj ${i}`,
            created_at: due,
            closed_at: null,
          })),
        )
        .returning('id')
        .execute();
      await tx
        .insertInto('bids')
        .values(rows.map((r) => ({ auction_id: r.id, bidder_id: bidder.id, amount: 1010, created_at: due })))
        .execute();
      return rows.map((r) => r.id);
    });
    t.ctx.closer.rearm();
    await eventually(() => started >= 5, 10_000, 5);
    await shutdown;
    activeAtSettle = active;
    settled = true;
    await sleep(300);

    expect(activeAtSettle, 'a close was still running when the shutdown settled').toBe(0);
    expect(startedAfter, 'a close started after the shutdown settled').toBe(0);

    const h = onPostgres ? await openAppDatabase({ databaseUrl: t.ctx.config.databaseUrl, file: '' }) : openDatabase(path.join(t.dataDir, 'aukcije.sqlite'));
    try {
      const rows = await h.db.selectFrom('auctions').select(['id', 'status', 'winner_id', 'closed_at']).where('id', 'in', ids).execute();
      const notes = await h.db.selectFrom('notifications').select(['auction_id', 'user_id', 'kind']).where('auction_id', 'in', ids).where('kind', 'in', ['won', 'auction_ended']).execute();
      const ended = rows.filter((r) => r.status === 'ended');
      const open = rows.filter((r) => r.status === 'active');
      expect(ended.length, 'the close under way when the shutdown came was finished').toBeGreaterThanOrEqual(5);
      expect(open.length, 'the closer stopped inside its batch, between two auctions').toBeGreaterThan(0);
      expect(ended.length + open.length).toBe(AUCTIONS);
      for (const r of ended) {
        expect(r.winner_id).toBe(bidder.id);
        expect(r.closed_at).not.toBeNull();
        const mine = notes.filter((n) => n.auction_id === r.id);
        expect(mine.map((n) => `${n.kind}:${n.user_id}`).sort()).toEqual([`auction_ended:${seller.id}`, `won:${bidder.id}`]);
      }
      for (const r of open) {
        expect(r).toMatchObject({ winner_id: null, closed_at: null });
        expect(notes.filter((n) => n.auction_id === r.id)).toEqual([]);
      }
      console.info(`[shutdown] closer stopped after ${ended.length} of ${AUCTIONS} overdue auctions; ${open.length} left whole for the next start`);
    } finally {
      await h.close();
      await t.close();
    }
  });
});
