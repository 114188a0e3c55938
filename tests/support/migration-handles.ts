/** Fresh databases for migration tests: a SQLite file, or a PostgreSQL database of its own (unmigrated). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openAppDatabase, type DbHandle } from '../../server/db/connection';
import { createTestDatabase, databaseUrl, dropTestDatabase } from './pg';

/** Opens the handles; `cleanup()` closes and removes them all (call it in afterAll). */
export function migrationHandles() {
  const cleanups: (() => Promise<void>)[] = [];
  return {
    async sqlite(): Promise<DbHandle> {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aukcije-mig-'));
      const h = await openAppDatabase({ file: path.join(dir, 'aukcije.sqlite') });
      cleanups.push(async () => {
        await h.close();
        fs.rmSync(dir, { recursive: true, force: true });
      });
      return h;
    },
    async postgres(): Promise<DbHandle> {
      const name = await createTestDatabase({ unmigrated: true });
      const h = await openAppDatabase({ databaseUrl: databaseUrl(name), file: '' });
      cleanups.push(async () => {
        await h.close();
        await dropTestDatabase(name);
      });
      return h;
    },
    async cleanup(): Promise<void> {
      for (const c of cleanups.reverse()) await c();
    },
  };
}
