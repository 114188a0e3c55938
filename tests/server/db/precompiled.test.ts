/**
 * precompiled(): a kysely query built once and run with new values (docs/performance.md, B1). It must give
 * exactly what the same query built per call gives, inside transactions too, and never let one database's
 * compiled form or values leak into another's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DbHandle } from '../../../server/db/connection';
import { precompiled } from '../../../server/db/precompiled';
import type { DbOrTx } from '../../../server/db/types';

let dir: string;
const handles: DbHandle[] = [];
async function freshDb(names: string[]): Promise<DbHandle> {
  const h = openDatabase(path.join(dir, `db${handles.length}.sqlite`));
  handles.push(h);
  await migrateToLatest(h.db);
  const ins = h.sqlite.prepare(`insert into users (first_name, email, created_at) values (?, ?, ?)`);
  names.forEach((n, i) => ins.run(n, `${n.toLowerCase()}${i}@example.com`, new Date().toISOString()));
  return h;
}
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aukcije-precompiled-'));
});
afterAll(async () => {
  for (const h of handles) await h.db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('precompiled queries', () => {
  let builds = 0;
  const byNameAndMinId = precompiled((db: DbOrTx, p: { name: string; minId: number }) => {
    builds += 1;
    return db.selectFrom('users').select(['id', 'first_name']).where('first_name', '=', p.name).where('id', '>=', p.minId).where('is_admin', '=', 0).orderBy('id');
  });

  it('returns what the same query built per call returns, for every value, and builds it once', async () => {
    const h = await freshDb(['Marko', 'Jelena', 'Marko', 'Ana']);
    builds = 0;
    for (const [name, minId] of [['Marko', 1], ['Marko', 2], ['Jelena', 1], ['Nema', 1], ["O'Hara; drop table users", 1]] as const) {
      const expected = await h.db.selectFrom('users').select(['id', 'first_name']).where('first_name', '=', name).where('id', '>=', minId).where('is_admin', '=', 0).orderBy('id').execute();
      expect(await byNameAndMinId(h.db, { name, minId })).toEqual(expected);
    }
    expect(builds).toBe(1);
    expect((await byNameAndMinId(h.db, { name: 'Marko', minId: 1 })).map((r) => r.id)).toEqual([1, 3]);
  });

  it('runs inside a transaction and sees its uncommitted writes', async () => {
    const h = handles[0];
    await h.db.transaction().execute(async (tx) => {
      await tx.insertInto('users').values({ first_name: 'Marko', email: 'novi@example.com', phone_number: '', city: '', created_at: new Date().toISOString() }).execute();
      expect((await byNameAndMinId(tx, { name: 'Marko', minId: 1 })).length).toBe(3);
      throw Object.assign(new Error('rollback'), { rollback: true });
    }).catch((e: { rollback?: boolean }) => {
      if (!e.rollback) throw e;
    });
    expect((await byNameAndMinId(h.db, { name: 'Marko', minId: 1 })).length).toBe(2);
  });

  it('a second database gets its own rows (and its own compiled form)', async () => {
    const other = await freshDb(['Stefan', 'Marko']);
    builds = 0;
    expect(await byNameAndMinId(other.db, { name: 'Marko', minId: 1 })).toEqual([{ id: 2, first_name: 'Marko' }]);
    expect(await byNameAndMinId(handles[0].db, { name: 'Marko', minId: 1 })).toEqual([{ id: 1, first_name: 'Marko' }, { id: 3, first_name: 'Marko' }]);
    expect(builds).toBe(2);
  });
});
