#!/usr/bin/env node
// `npm start`: builds what is missing or older than the sources, then serves the production build.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const stamp = path.join(root, 'dist', '.build-stamp');
const serverEntry = path.join(root, 'dist/server/index.js');

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

function needsBuild() {
  if (!fs.existsSync(stamp) || !fs.existsSync(serverEntry) || !fs.existsSync(path.join(root, 'dist/client/index.html'))) return true;
  const built = fs.statSync(stamp).mtimeMs;
  const sources = Math.max(
    ...['server', 'shared', 'client'].map((d) => newestMtime(path.join(root, d))),
    fs.statSync(path.join(root, 'package.json')).mtimeMs,
  );
  return sources > built;
}

if (process.env.SKIP_BUILD !== '1' && needsBuild()) {
  console.log('Gradim aplikaciju (prvi start ili izmenjeni izvori)...');
  const { buildAll } = await import('./build.mjs');
  await buildAll({ quiet: true });
}
await import(pathToFileURL(serverEntry).href);
