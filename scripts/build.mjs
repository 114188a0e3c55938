#!/usr/bin/env node
// Builds the production client (Vite → dist/client) and server (esbuild → dist/server/index.js).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const STAMP = path.join(root, 'dist', '.build-stamp');

export async function buildAll({ quiet = false } = {}) {
  const t0 = Date.now();
  await viteBuild({ configFile: path.join(root, 'vite.config.ts'), logLevel: quiet ? 'warn' : 'info' });
  await esbuild({
    entryPoints: [path.join(root, 'server/index.ts')],
    outfile: path.join(root, 'dist/server/index.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Pure-JS dependencies are bundled too: resolving and loading hundreds of separate ESM files cost about
    // half of the cold start (docs/performance.md, B4). Native addons stay external; `require` is provided
    // for the bundled CommonJS packages. The SQLite driver is one of two better-sqlite3 packages, chosen at start
    // (server/db/sqlite-driver.ts).
    external: ['better-sqlite3-node20', 'better-sqlite3-node22', 'argon2', 'sharp', 'bufferutil', 'utf-8-validate'],
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    tsconfig: path.join(root, 'tsconfig.json'),
    sourcemap: true,
    logLevel: 'warning',
  });
  fs.writeFileSync(STAMP, new Date().toISOString());
  if (!quiet) console.log(`build: done in ${Date.now() - t0} ms`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildAll().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
