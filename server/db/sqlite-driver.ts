/**
 * The SQLite driver for the running Node. It is better-sqlite3, installed twice under its own names
 * (package.json, npm aliases), because no single version of it works on both Node 20 and Node 24.19+:
 *
 * - `better-sqlite3-node22` = better-sqlite3 13.x (dependencies). Node-API through node-addon-api, prebuilt
 *   binaries inside the package, no install script. Its addon asks for Node-API 10, which Node has from
 *   22.14.0 on (every 24.x); on Node 20 (Node-API 9) it segfaults in the first `new Database()`.
 * - `better-sqlite3-node20` = better-sqlite3 12.x (optionalDependencies). Compiled at install time against
 *   the running Node's headers (raw `node::ObjectWrap`). Fine on Node 20; on Node 24.19 and later the GC
 *   aborts the process when it collects a statement ("Assertion failed: (env) != nullptr" in
 *   RemoveEnvironmentCleanupHook, nodejs/node#65446). Optional, so that a Node on which it does not compile
 *   still installs.
 *
 * The choice follows the cause: Node-API 10 available → 13.x, otherwise 12.x. Everything that opens a
 * database takes the constructor from here; `import type ... from 'better-sqlite3'` (from
 * @types/better-sqlite3, which describes both) is fine for types, a value import of 'better-sqlite3' is not
 * (no package of that name is installed; eslint.config.js says so).
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

export type SqliteDriverPackage = 'better-sqlite3-node20' | 'better-sqlite3-node22';

/** Which of the two installed packages a Node with this Node-API version (`process.versions.napi`) loads. */
export function sqliteDriverPackageFor(napiVersion: number): SqliteDriverPackage {
  return napiVersion >= 10 ? 'better-sqlite3-node22' : 'better-sqlite3-node20';
}

/** The driver could not be loaded: the message names the package, the Node and the fix. */
export class SqliteDriverError extends Error {
  override name = 'SqliteDriverError';
}

let loaded: { pkg: SqliteDriverPackage; Database: typeof BetterSqlite3 } | undefined;

/** The package this process uses (better-sqlite3-node20 or better-sqlite3-node22). */
export function sqliteDriverPackage(): SqliteDriverPackage {
  return sqliteDriverPackageFor(Number(process.versions.napi));
}

/** The better-sqlite3 `Database` constructor for the running Node; loaded once, on first use. */
export function sqliteDriver(): typeof BetterSqlite3 {
  if (loaded) return loaded.Database;
  const pkg = sqliteDriverPackage();
  // createRequire: resolved at run time from this file (or from dist/server/index.js once bundled; the build
  // keeps both names external), so only the chosen package is ever loaded.
  const load = createRequire(import.meta.url);
  let Database: typeof BetterSqlite3;
  try {
    Database = load(pkg) as typeof BetterSqlite3;
    // better-sqlite3 loads its addon on the first `new Database()`: open one here, so that an addon built for
    // another Node fails now, with the message below.
    new Database(':memory:').close();
  } catch (err) {
    const cause = (err instanceof Error ? err.message : String(err)).split('\nRequire stack')[0].replace(/\s*\n\s*/g, ' ').replace(/\.$/, '');
    const missing = (err as NodeJS.ErrnoException | undefined)?.code === 'MODULE_NOT_FOUND';
    // Missing: not installed, or (better-sqlite3-node20, optional) its compilation failed during `npm install`.
    // Present but not loadable: compiled for another Node (installed with a newer Node, then back on 20).
    const fix = missing
      ? `pokrenite \`npm install\` ovom verzijom Node-a${pkg === 'better-sqlite3-node20' ? ` (${pkg} se tada kompajlira i traži python3, make i g++)` : ''}`
      : `pokrenite \`npm rebuild\` ovom verzijom Node-a (node_modules je instaliran drugom verzijom)`;
    throw new SqliteDriverError(
      `SQLite drajver ${pkg} (better-sqlite3) ne može da se učita na Node ${process.version} (Node-API ${process.versions.napi}): ${cause}. ` +
        `Rešenje: ${fix}. Podržane verzije Node-a: 20.19+ (20.x), 22.14+ (22.x) i 24.x (README, „Verzije Node-a“).`,
      { cause: err },
    );
  }
  loaded = { pkg, Database };
  return Database;
}
