/**
 * The SQLite session store's touch (docs/performance.md, B1): every request touches its session, so the
 * store writes only when the stored expiry is over a minute older than the new one, and skips even the
 * statement when get() of the same request already read a fresh expiry. The user-visible part: a session
 * in use keeps being extended (14 days from the last request), and a fresh one is not rewritten.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../../../server/db/connection';
import { sqliteDriver } from '../../../server/db/sqlite-driver';
import { sessionsRepository } from '../../../server/features/accounts/sessions.repository';
import { SqliteSessionStore } from '../../../server/http/session-store';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser, loginAs } from '../../support/factories';

const DAY = 24 * 3600 * 1000;
const TTL = 14 * DAY;

describe('session store touch', () => {
  let dir: string;
  let sqlite: Database.Database;
  let store: SqliteSessionStore;
  /** Runs of the store's UPDATE statement (the store prepares its statements on this connection). */
  let touchRuns = 0;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aukcije-sessions-'));
    const file = path.join(dir, 'aukcije.sqlite');
    const h = openDatabase(file);
    await migrateToLatest(h.db);
    await h.db.destroy();
    sqlite = new (sqliteDriver())(file);
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((source: string) => {
      const stmt = prepare(source);
      if (!/^UPDATE sessions SET expires/.test(source)) return stmt;
      const run = stmt.run.bind(stmt);
      stmt.run = ((...args: unknown[]) => {
        touchRuns += 1;
        return run(...args);
      }) as typeof stmt.run;
      return stmt;
    }) as typeof sqlite.prepare;
    store = new SqliteSessionStore(sessionsRepository(sqlite));
  });
  afterAll(() => {
    sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const storedExpires = (sid: string) => (sqlite.prepare('SELECT expires FROM sessions WHERE sid = ?').get(sid) as { expires: number }).expires;
  const get = (sid: string) =>
    new Promise<Record<string, unknown> & { cookie: Record<string, unknown> }>((resolve, reject) =>
      store.get(sid, (err, s) => (err ? reject(err) : resolve(s as never))),
    );
  const touch = (sid: string, sess: object) => new Promise<void>((resolve, reject) => store.touch(sid, sess as never, (err) => (err ? reject(err) : resolve())));
  const set = (sid: string, expiresMs: number) =>
    new Promise<void>((resolve, reject) =>
      store.set(sid, { cookie: { expires: new Date(expiresMs), originalMaxAge: TTL }, passport: { user: 1 } } as never, (err) => (err ? reject(err) : resolve())),
    );

  it('a session read fresh in this request is not written again, and the read leaves nothing extra in what is saved', async () => {
    const now = Date.now();
    await set('fresh', now + TTL);
    const sess = await get('fresh');
    touchRuns = 0;
    await touch('fresh', { ...sess, cookie: { ...sess.cookie, expires: new Date(now + TTL + 30_000) } });
    expect(touchRuns).toBe(0);
    expect(storedExpires('fresh')).toBe(now + TTL);
    const saved = sqlite.prepare('SELECT sess FROM sessions WHERE sid = ?').get('fresh') as { sess: string };
    expect(Object.keys(JSON.parse(saved.sess).cookie).sort()).toEqual(['expires', 'originalMaxAge']);
  });

  it('a session whose stored expiry is over a minute old is extended to the new expiry', async () => {
    const now = Date.now();
    await set('old', now + TTL - DAY);
    const sess = await get('old');
    await touch('old', { ...sess, cookie: { ...sess.cookie, expires: new Date(now + TTL) } });
    expect(storedExpires('old')).toBe(now + TTL);
  });

  it('a touch without a read of its own still goes to the database (and writes only when a minute stale)', async () => {
    const now = Date.now();
    await set('unread', now + TTL);
    touchRuns = 0;
    await touch('unread', { cookie: { expires: new Date(now + TTL + 30_000) } });
    expect(touchRuns).toBe(1);
    expect(storedExpires('unread')).toBe(now + TTL);
    await touch('unread', { cookie: { expires: new Date(now + TTL + 120_000) } });
    expect(storedExpires('unread')).toBe(now + TTL + 120_000);
  });
});

describe('a logged-in session through HTTP', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  it('an anonymous read without cookies stores no session and sets only a visitor csrftoken; GET /api/csrf/ stores one', async () => {
    const sessions = async () => (await t.ctx.db.selectFrom('sessions').select('sid').execute()).length;
    const before = await sessions();
    for (const p of ['/api/auctions/?page=1', '/api/user/status/', '/api/auctions/best/', '/api/nema/']) {
      const res = await fetch(t.url + p);
      expect(res.headers.getSetCookie().map((l) => l.split('=')[0]), p).toEqual(['csrftoken']);
    }
    expect(await sessions()).toBe(before);
    const csrf = await fetch(`${t.url}/api/csrf/`);
    const cookies = csrf.headers.getSetCookie().map((l) => l.split('=')[0]);
    expect(cookies.sort()).toEqual(['csrftoken', 'sessionid']);
    // express-session holds the end of the body until the store has saved (at once on SQLite, a round trip on PostgreSQL).
    await csrf.text();
    expect(await sessions()).toBe(before + 1);
  });

  it('a visitor with a session gets its csrftoken cookie back on any API read when it was lost', async () => {
    const user = await createUser(t.ctx);
    const api = await loginAs(t.url, user);
    const token = api.csrfToken();
    api.cookies.delete('csrftoken');
    await api.get('/api/auctions/?page=1');
    expect(api.csrfToken()).toBe(token);
  });

  it('is extended to 14 days from the last request when its stored expiry is older, and stays logged in', async () => {
    const user = await createUser(t.ctx);
    const api = await loginAs(t.url, user);
    const row = () => t.ctx.db.selectFrom('sessions').select(['sid', 'expires']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const { sid } = await row();
    await t.ctx.db.updateTable('sessions').set({ expires: Date.now() + DAY }).where('sid', '=', sid).execute();
    const before = Date.now();
    const status = await api.get('/api/user/status/');
    expect(status.body).toMatchObject({ is_authenticated: true });
    expect((await row()).expires).toBeGreaterThanOrEqual(before + TTL - 1000);
    expect((await row()).expires).toBeLessThanOrEqual(Date.now() + TTL + 1000);
  });
});
