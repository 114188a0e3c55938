/**
 * Issue 24, the audit log over real HTTP: every admin action (delete an auction or a comment, block, unblock,
 * resolve or dismiss a report) appends a row in the action's own transaction; GET /api/admin/audit-log/ newest
 * first, admins only. Append-only in the database itself: UPDATE and DELETE through a raw connection of the
 * driver (better-sqlite3 on the SQLite file, node-postgres on PostgreSQL) are refused by triggers. Runs on SQLite
 * and, through `node scripts/test-pg.mjs`, on PostgreSQL.
 */
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLogPage, type AuditEntry } from '@shared/schemas/reports';
import { sqliteDriver } from '../../../server/db/sqlite-driver';
import { startTestServer, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { actor, type Actor } from '../../support/marketplace';
import { onPostgres } from '../../support/pg';

let t: TestServer;
let admin: Actor;
let member: Actor;
let visitor: ApiClient;

beforeAll(async () => {
  t = await startTestServer();
  [admin, member] = await Promise.all([actor(t, { first_name: 'Adminka', admin: true }), actor(t, { first_name: 'Član' })]);
  visitor = new ApiClient(t.url);
  await visitor.ensureCsrf();
});
afterAll(async () => {
  await t?.close();
});

async function log(query = '?page_size=100'): Promise<AuditEntry[]> {
  const res = await admin.api.get(`/api/admin/audit-log/${query}`);
  expect(res.status).toBe(200);
  return AuditLogPage.parse(res.body).results;
}
const rowCount = async () => Number((await t.ctx.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('GET /api/admin/audit-log/', () => {
  it('refuses a visitor and a member with 403', async () => {
    expect((await visitor.get('/api/admin/audit-log/')).status).toBe(403);
    expect((await member.api.get('/api/admin/audit-log/')).status).toBe(403);
  });

  it('records each admin action with the admin, newest first', async () => {
    const [owner, target] = await Promise.all([actor(t), actor(t)]);
    const a = await createAuction(t.ctx, owner.user.id, { title: 'Za brisanje' });
    const b = await createAuction(t.ctx, owner.user.id);
    const c = (await member.api.post('/api/comments/create/', { auction_item_id: b.id, content: 'Uvreda' })).body as { id: number };
    expect((await admin.api.delete(`/api/auctionItems/delete/${a.id}/`)).status).toBe(204);
    expect((await admin.api.delete(`/api/comments/${c.id}/delete/`)).status).toBe(204);
    expect((await admin.api.post(`/api/admin/users/${target.user.id}/block/`)).status).toBe(200);
    expect((await admin.api.post(`/api/admin/users/${target.user.id}/unblock/`)).status).toBe(200);
    const r = (await member.api.post('/api/reports/', { target_type: 'auction', target_id: b.id, reason: 'spam' })).body as { id: number };
    expect((await admin.api.post(`/api/admin/reports/${r.id}/resolve/`, { action: 'dismiss', note: 'U redu je.' })).status).toBe(200);

    const rows = (await log()).slice(0, 5);
    const me = { id: admin.user.id, first_name: 'Adminka' };
    const at = expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(rows).toEqual([
      { id: expect.any(Number), admin: me, action: 'dismiss_report', target_type: 'report', target_id: r.id, note: 'U redu je.', created_at: at },
      { id: expect.any(Number), admin: me, action: 'unblock_user', target_type: 'member', target_id: target.user.id, note: '', created_at: at },
      { id: expect.any(Number), admin: me, action: 'block_user', target_type: 'member', target_id: target.user.id, note: '', created_at: at },
      { id: expect.any(Number), admin: me, action: 'delete_comment', target_type: 'comment', target_id: c.id, note: '', created_at: at },
      { id: expect.any(Number), admin: me, action: 'delete_auction', target_type: 'auction', target_id: a.id, note: '', created_at: at },
    ]);
    const ids = rows.map((x) => x.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
  });

  it("a report's resolution logs the delete and every report it closed; a member's own delete logs nothing", async () => {
    const [owner, other] = await Promise.all([actor(t), actor(t)]);
    const a = await createAuction(t.ctx, owner.user.id);
    const r1 = (await member.api.post('/api/reports/', { target_type: 'auction', target_id: a.id, reason: 'fraud' })).body as { id: number };
    const r2 = (await other.api.post('/api/reports/', { target_type: 'auction', target_id: a.id, reason: 'fraud' })).body as { id: number };
    expect((await admin.api.post(`/api/admin/reports/${r1.id}/resolve/`, { action: 'delete_target', note: 'Prevara.' })).status).toBe(200);
    const rows = (await log()).slice(0, 3);
    expect(rows.map((x) => [x.action, x.target_type, x.target_id, x.note])).toEqual(
      expect.arrayContaining([
        ['delete_auction', 'auction', a.id, 'Prevara.'],
        ['resolve_report', 'report', r1.id, 'Prevara.'],
        ['resolve_report', 'report', r2.id, 'Prevara.'],
      ]),
    );
    const before = await rowCount();
    const mine = await createAuction(t.ctx, owner.user.id);
    expect((await owner.api.delete(`/api/auctionItems/delete/${mine.id}/`)).status).toBe(204);
    expect(await rowCount()).toBe(before);
  });

  it('writes no row when the action is refused (same transaction)', async () => {
    const before = await rowCount();
    expect((await admin.api.post(`/api/admin/users/${admin.user.id}/block/`)).status).toBe(400);
    // A report on the admin's own auction: block_owner would block the admin, refused and rolled back whole.
    const a = await createAuction(t.ctx, admin.user.id);
    const r = (await member.api.post('/api/reports/', { target_type: 'auction', target_id: a.id, reason: 'spam' })).body as { id: number };
    expect((await admin.api.post(`/api/admin/reports/${r.id}/resolve/`, { action: 'block_owner' })).status).toBe(400);
    expect(await rowCount()).toBe(before);
    expect((await t.ctx.db.selectFrom('reports').select('status').where('id', '=', r.id).executeTakeFirstOrThrow()).status).toBe('open');
  });

  it('pages by page_size', async () => {
    const res = await admin.api.get('/api/admin/audit-log/?page=2&page_size=2');
    const page = AuditLogPage.parse(res.body);
    expect(page.previous).toBe(1);
    expect(page.results).toHaveLength(2);
    expect(page.count).toBe(await rowCount());
  });
});

describe(`audit_log is append-only in the database (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  /** Runs one statement on a raw connection of the driver, outside the app; the error message or 'ok'. */
  async function raw(statement: string): Promise<string> {
    if (onPostgres) {
      const client = new pg.Client({ connectionString: t.ctx.config.databaseUrl });
      await client.connect();
      try {
        await client.query(statement);
        return 'ok';
      } catch (err) {
        return (err as Error).message;
      } finally {
        await client.end();
      }
    }
    const Database = sqliteDriver();
    const db = new Database(path.join(t.dataDir, 'aukcije.sqlite'));
    try {
      db.exec(statement);
      return 'ok';
    } catch (err) {
      return (err as Error).message;
    } finally {
      db.close();
    }
  }

  it('refuses UPDATE and DELETE of its rows, and keeps them as they were', async () => {
    expect((await admin.api.post(`/api/admin/users/${member.user.id}/unblock/`)).status).toBe(200);
    const before = await t.ctx.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
    expect(before.length).toBeGreaterThan(0);
    expect(await raw(`UPDATE audit_log SET note = 'prepravljeno', admin_id = ${member.user.id}`)).toContain('append-only');
    expect(await raw('DELETE FROM audit_log')).toContain('append-only');
    expect(await raw(`DELETE FROM audit_log WHERE id = ${before[0]!.id}`)).toContain('append-only');
    if (onPostgres) expect(await raw('TRUNCATE audit_log')).toContain('append-only');
    expect(await t.ctx.db.selectFrom('audit_log').selectAll().orderBy('id').execute()).toEqual(before);
    // Appending still works through the same raw connection.
    expect(await raw(`INSERT INTO audit_log (admin_id, action, target_type, target_id, note, created_at) VALUES (${admin.user.id}, 'unblock_user', 'member', ${member.user.id}, '', '2026-11-26T00:00:00.000Z')`)).toBe('ok');
  });
});
