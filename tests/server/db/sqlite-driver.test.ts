/**
 * The SQLite driver chosen for the running Node (server/db/sqlite-driver.ts, README „Verzije Node-a“):
 * better-sqlite3 13.x where Node-API 10 exists (Node 22.14+, 24), 12.x on Node 20. CI runs this file on
 * Node 20 and on the latest Node 24 (scripts/ci-node24.sh). What a user would notice on Node 24.19+ with
 * 12.x: the server process aborting as soon as the GC collects statements (nodejs/node#65446).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sqliteDriver, sqliteDriverPackage, sqliteDriverPackageFor } from '../../../server/db/sqlite-driver';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const requireHere = createRequire(import.meta.url);

describe('SQLite driver for the running Node', () => {
  it('is better-sqlite3 13.x where Node-API 10 exists, 12.x otherwise', () => {
    expect(sqliteDriverPackageFor(9)).toBe('better-sqlite3-node20');
    expect(sqliteDriverPackageFor(10)).toBe('better-sqlite3-node22');
    const { name, version } = requireHere(`${sqliteDriverPackage()}/package.json`) as { name: string; version: string };
    expect(name).toBe('better-sqlite3');
    expect(version.split('.')[0]).toBe(Number(process.versions.napi) >= 10 ? '13' : '12');
    const db = new (sqliteDriver())(':memory:');
    try {
      expect(db.prepare('select sqlite_version() as v').get()).toEqual({ v: expect.stringMatching(/^3\.\d+\.\d+$/) });
    } finally {
      db.close();
    }
  });

  it('keeps the process alive while the GC collects many unreferenced statements', () => {
    // A separate Node process (the same binary) that opens a database through the server's own module and
    // drops 60,000 prepared statements for the GC to collect as it goes (left to itself: a `gc()` called from
    // JavaScript does not show the bug). With better-sqlite3 12 on Node 24.19+ it dies within the first
    // 20,000 with "Assertion failed: (env) != nullptr" (SIGABRT).
    const script = `
      const { sqliteDriver } = await import('./server/db/sqlite-driver.ts');
      const db = new (sqliteDriver())(':memory:');
      db.exec('create table t (id integer primary key, v text)');
      for (let i = 0; i < 60000; i++) db.prepare('select v from t where id = ' + (i % 2000)).all();
      db.close();
      console.log('survived');
    `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stderr).not.toContain('Assertion failed');
    expect({ status: r.status, signal: r.signal, stdout: r.stdout.trim() }).toEqual({ status: 0, signal: null, stdout: 'survived' });
  });

  it('names the package, the Node and the fix when the driver is not installed', () => {
    // The server's module, copied where no node_modules can be found: what `npm start` says when the install
    // lacks the driver (e.g. better-sqlite3-node20 failed to compile on Node 20).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aukcije-driver-'));
    try {
      fs.copyFileSync(path.join(root, 'server/db/sqlite-driver.ts'), path.join(dir, 'sqlite-driver.mts'));
      const script = `
        const { sqliteDriver } = await import(${JSON.stringify(path.join(dir, 'sqlite-driver.mts'))});
        try { sqliteDriver(); } catch (err) { console.log(err.name + ': ' + err.message); }
      `;
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 30_000 });
      const pkg = sqliteDriverPackage();
      expect(r.stdout.trim()).toBe(
        `SqliteDriverError: SQLite drajver ${pkg} (better-sqlite3) ne može da se učita na Node ${process.version} (Node-API ${process.versions.napi}): ` +
          `Cannot find module '${pkg}'. Rešenje: pokrenite \`npm install\` ovom verzijom Node-a` +
          (pkg === 'better-sqlite3-node20' ? ' (better-sqlite3-node20 se tada kompajlira i traži python3, make i g++)' : '') +
          '. Podržane verzije Node-a: 20.19+ (20.x), 22.14+ (22.x) i 24.x (README, „Verzije Node-a“).',
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
