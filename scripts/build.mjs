#!/usr/bin/env node
// Builds the production client (Vite → dist/client, then .br and .gz beside each text asset: precompress.mjs)
// and server (esbuild → dist/server/server.cjs, started by dist/server/index.js: scripts/server-loader.mjs,
// which keeps a V8 code cache of the bundle).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { precompress } from './precompress.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const STAMP = path.join(root, 'dist', '.build-stamp');
/** Loaded only with REDIS_URL (server/lib/redis.ts): required from node_modules then, never read by a single node. */
const CLUSTER_ONLY = ['redis', '@socket.io/redis-adapter', 'rate-limit-redis'];
/** Loaded only with METRICS_TOKEN (server/lib/metrics.ts): a node nobody scrapes never reads it. */
const METRICS_ONLY = ['prom-client'];

export async function buildAll({ quiet = false } = {}) {
  const t0 = Date.now();
  await viteBuild({ configFile: path.join(root, 'vite.config.ts'), logLevel: quiet ? 'warn' : 'info' });
  precompress(path.join(root, 'dist/client'));
  const serverDir = path.join(root, 'dist/server');
  // Leftovers of an earlier layout (the ESM bundle was index.js itself) and a code cache of the last build.
  for (const f of ['index.js', 'index.js.map', 'server.cjs.v8cache']) fs.rmSync(path.join(serverDir, f), { force: true });
  await esbuild({
    entryPoints: [path.join(root, 'server/index.ts')],
    outfile: path.join(serverDir, 'server.cjs'),
    bundle: true,
    platform: 'node',
    // CommonJS, so that scripts/server-loader.mjs can run it through vm.Script with a code cache (Node 20 has
    // no code cache for ES modules).
    format: 'cjs',
    target: 'node20',
    // Pure-JS dependencies are bundled too: resolving and loading hundreds of separate ESM files cost about
    // half of the cold start (docs/performance.md, B4). Native addons stay external. The SQLite driver is one of
    // two better-sqlite3 packages, chosen at start (server/db/sqlite-driver.ts).
    external: ['better-sqlite3-node20', 'better-sqlite3-node22', 'pg', 'argon2', 'sharp', 'bufferutil', 'utf-8-validate', ...CLUSTER_ONLY, ...METRICS_ONLY],
    // A CommonJS bundle has no import.meta: its url is this file's, as in ES modules.
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: { js: "var __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    // `await import('argon2')` and the like become `require()` on first use: a vm.Script has no dynamic
    // import() without --experimental-vm-modules, and these addons are CommonJS anyway.
    supported: { 'dynamic-import': false },
    // Whitespace and syntax only (names stay readable in stack traces): 4.9 → 3.3 MB to read and hash.
    minifyWhitespace: true,
    minifySyntax: true,
    tsconfig: path.join(root, 'tsconfig.json'),
    sourcemap: true,
    logLevel: 'warning',
  });
  const hash = crypto.createHash('sha256').update(fs.readFileSync(path.join(serverDir, 'server.cjs'))).digest('hex').slice(0, 16);
  const loader = fs.readFileSync(path.join(root, 'scripts/server-loader.mjs'), 'utf8').replace('__BUNDLE_HASH__', hash);
  fs.writeFileSync(path.join(serverDir, 'index.js'), loader);
  fs.writeFileSync(STAMP, new Date().toISOString());
  if (!quiet) console.log(`build: done in ${Date.now() - t0} ms`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildAll().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
