/**
 * Statistics kept fresh the way SQLite recommends (server/db/connection.ts): `PRAGMA optimize=0x10002` when a
 * connection opens and after migrations, then plain `PRAGMA optimize` every hour on a timer that does not
 * keep the process alive and stops when the connection closes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { migrateToLatest, openDatabase, OPTIMIZE_EVERY_MS } from '../../../server/db/connection';
import { listCards } from '../../../server/features/auctions/auctions.repository';
import { describeSqliteOnly } from '../../support/pg';

const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aukcije-optimize-'));
  dirs.push(dir);
  return path.join(dir, 'aukcije.sqlite');
}

const auctionStats = (s: import('better-sqlite3').Database) =>
  s.prepare(`select 1 from sqlite_master where name = 'sqlite_stat1'`).get() ? s.prepare(`select count(*) as n from sqlite_stat1 where tbl = 'auctions'`).get() : { n: 0 };

function fill(s: import('better-sqlite3').Database, n: number) {
  const now = new Date().toISOString();
  const end = new Date(Date.now() + 86_400_000).toISOString();
  s.prepare(`insert into users (first_name, email, created_at) values ('P', 'p@example.com', ?)`).run(now);
  const ins = s.prepare(
    `insert into auctions (seller_id, title, description, category, city, phone_number, starting_price, current_price, end_date, original_end_date, created_at)
     values (1, 't', 'd', 'toys', 'Beograd', '0641234567', ?, ?, ?, ?, ?)`,
  );
  s.transaction(() => {
    for (let i = 0; i < n; i++) ins.run(100 + i, 100 + i, end, end, now);
  })();
}

describeSqliteOnly('PRAGMA optimize and sqlite_stat1', 'PRAGMA optimize', () => {
  it('analyses a database that has none at open', async () => {
    const file = tempFile();
    const first = openDatabase(file);
    await migrateToLatest(first.db);
    fill(first.sqlite, 2000);
    await first.close();
    const second = openDatabase(file);
    expect((auctionStats(second.sqlite) as { n: number }).n).toBeGreaterThan(0);
    await second.close();
  });

  it('runs every hour on a timer that close() clears', async () => {
    vi.useFakeTimers();
    const h = openDatabase(tempFile());
    await migrateToLatest(h.db);
    fill(h.sqlite, 2000);
    // A query uses the table, so plain `optimize` considers it.
    await listCards(h.db, { scope: { kind: 'public' }, now: new Date().toISOString() }, 'priceAsc', 20, 0);
    expect((auctionStats(h.sqlite) as { n: number }).n).toBe(0);
    vi.advanceTimersByTime(OPTIMIZE_EVERY_MS);
    expect((auctionStats(h.sqlite) as { n: number }).n).toBeGreaterThan(0);
    // This hourly one and the WAL checkpoints' idle timer (wal-checkpoints.ts): close() clears both.
    expect(vi.getTimerCount()).toBe(2);
    await h.close();
    expect(vi.getTimerCount()).toBe(0);
  });
});
