#!/usr/bin/env node
// `npm start`: builds what is missing or older than the sources, then serves the production build in this
// same process (no second node). Imports only what the check needs: the server bundle is the first big load.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const stamp = path.join(root, 'dist', '.build-stamp');
const serverEntry = path.join(root, 'dist/server/index.js');
/** What the build reads besides the source folders: a change to any of them also rebuilds. */
const BUILD_INPUTS = ['package.json', 'vite.config.ts', 'tsconfig.json', 'scripts/build.mjs', 'scripts/precompress.mjs', 'scripts/server-loader.mjs'];

const mtime = (p) => fs.statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? 0;

/** Whether any file below `dir` (node_modules and dot-files left out) changed after `since`; stops at the first. */
function newerThan(dir, since) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const e of entries) {
    if (e.name === 'node_modules' || e.name[0] === '.') continue;
    const p = `${dir}/${e.name}`;
    if (e.isDirectory() ? newerThan(p, since) : mtime(p) > since) return true;
  }
  return false;
}

function needsBuild() {
  const built = mtime(stamp);
  if (!built || !mtime(serverEntry) || !mtime(path.join(root, 'dist/server/server.cjs')) || !mtime(path.join(root, 'dist/client/index.html'))) return true;
  return BUILD_INPUTS.some((f) => mtime(path.join(root, f)) > built) || ['server', 'shared', 'client'].some((d) => newerThan(path.join(root, d), built));
}

if (process.env.SKIP_BUILD !== '1' && needsBuild()) {
  console.log('Gradim aplikaciju (prvi start ili izmenjeni izvori)...');
  const { buildAll } = await import('./build.mjs');
  await buildAll({ quiet: true });
}
await import(pathToFileURL(serverEntry).href);
