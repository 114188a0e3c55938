/**
 * The app's WAL checkpoints run after the committing request, not inside its commit (server/db/wal-checkpoints.ts,
 * docs/performance.md "B2 / B7"). In WAL mode the database file itself changes only when a checkpoint copies pages
 * into it, so its size says whether one ran: every row here is a page of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DbHandle } from '../../../server/db/connection';
import { CHECKPOINT_EVERY_COMMITS, WAL_BACKSTOP_PAGES, WalCheckpoints } from '../../../server/db/wal-checkpoints';
import { sqliteDriver } from '../../../server/db/sqlite-driver';
import { sessionsRepository } from '../../../server/features/accounts/sessions.repository';
import { SqliteSessionStore } from '../../../server/http/session-store';
import { describeSqliteOnly } from '../../support/pg';

const dirs: string[] = [];
const handles: DbHandle[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aukcije-wal-'));
  dirs.push(dir);
  return path.join(dir, 'aukcije.sqlite');
}

const PAGE_ROW = 'x'.repeat(3000);
const size = (file: string) => fs.statSync(file).size;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The app's connection on a new file with one table, its WAL copied and emptied: the file's size is the baseline. */
async function opened(): Promise<{ h: DbHandle; file: string }> {
  const file = tempFile();
  const h = openDatabase(file);
  handles.push(h);
  await sql`create table t (id integer primary key, v text not null)`.execute(h.db);
  h.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return { h, file };
}

const insertRows = (h: DbHandle, n: number) =>
  h.db.transaction().execute(async (tx) => {
    for (let i = 0; i < n; i++) await sql`insert into t (v) values (${PAGE_ROW})`.execute(tx);
  });

describeSqliteOnly('WAL checkpoints after the answer', 'SQLite WAL checkpoints', () => {
  it('copies the WAL after every CHECKPOINT_EVERY_COMMITS commits, once the committing code has run on', async () => {
    const { h, file } = await opened();
    const before = size(file);
    for (let i = 0; i < CHECKPOINT_EVERY_COMMITS - 1; i++) {
      await insertRows(h, 1);
      await nextTurn();
    }
    expect(size(file)).toBe(before);
    await insertRows(h, 1);
    // What follows the commit in the same turn (a bid's broadcast and its answer) runs before any copying.
    expect(size(file)).toBe(before);
    await nextTurn();
    expect(size(file)).toBeGreaterThan(before + CHECKPOINT_EVERY_COMMITS * PAGE_ROW.length);
  });

  it("leaves SQLite's own checkpoint inside a commit as a backstop only", async () => {
    const { h, file } = await opened();
    expect(h.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_BACKSTOP_PAGES);
    const before = size(file);
    // Past SQLite's default of 1,000 pages, where its commit would have copied them into the file itself.
    await insertRows(h, 1200);
    expect(size(file)).toBe(before);
  });

  it('checkpoints a connection that wrote and went quiet, never inside an open transaction', async () => {
    const file = tempFile();
    const Database = sqliteDriver();
    const sqlite = new Database(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.exec('create table t (id integer primary key, v text not null)');
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const checkpoints = new WalCheckpoints(sqlite, 1000, 20);
    try {
      const before = size(file);
      sqlite.exec('begin immediate');
      for (let i = 0; i < 3; i++) sqlite.prepare('insert into t (v) values (?)').run(PAGE_ROW);
      checkpoints.run();
      expect(size(file)).toBe(before);
      sqlite.exec('commit');
      checkpoints.committed();
      const until = Date.now() + 2000;
      while (size(file) === before && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      expect(size(file)).toBeGreaterThan(before);
    } finally {
      checkpoints.stop();
      sqlite.close();
    }
  });

  it("checkpoints the session store's writes, which are not transactions, once the app's connection is quiet", async () => {
    const file = tempFile();
    const h = openDatabase(file);
    handles.push(h);
    await migrateToLatest(h.db);
    h.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const before = size(file);
    const store = new SqliteSessionStore(sessionsRepository(h.sqlite));
    const sess = { cookie: { originalMaxAge: 1000, expires: new Date(Date.now() + 60_000) }, big: PAGE_ROW.repeat(4) };
    for (let i = 0; i < 4; i++) {
      await new Promise<void>((resolve, reject) => store.set(`sid-${i}`, sess as never, (err) => (err ? reject(err as Error) : resolve())));
    }
    expect(size(file)).toBe(before);
    const until = Date.now() + 3000;
    while (size(file) === before && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(size(file)).toBeGreaterThan(before);
  });
});
