/**
 * What a cold first visit loads, read from a production client build (its .vite/manifest.json and the
 * per-chunk module list vite.config.ts writes beside it): the entry and its static imports, the route's page
 * chunk and its static imports, and the socket.io-client chunk the live layer loads after the first render.
 * Sizes are gzip -9 of the built files, as B5 weighs them in Chromium (scripts/bench/lib/benchmarks.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const execFileP = promisify(execFile);

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface ClientBuild {
  dir: string;
  manifest: Manifest;
  /** Output file (assets/…js) → the modules that put code in it, relative to the repo root. */
  modules: Record<string, string[]>;
}

/**
 * The production client built from the current sources into a temp folder, as scripts/build.mjs builds
 * dist/client (vite.config.ts, then scripts/precompress.mjs): independent of whatever dist/ holds, and of
 * other suites reading it meanwhile. A child process, because under vitest NODE_ENV is 'test' and Vite would
 * build React's development bundles. About 2 s of Vite and 2 s of brotli.
 */
export async function buildClient(): Promise<ClientBuild> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aukcije-client-'));
  const script = [
    "import { build } from 'vite';",
    "import { precompress } from './scripts/precompress.mjs';",
    "await build({ configFile: 'vite.config.ts', logLevel: 'error', build: { outDir: process.env.OUT_DIR, emptyOutDir: true } });",
    'precompress(process.env.OUT_DIR);',
  ].join('\n');
  await execFileP(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', OUT_DIR: dir, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  return readClientBuild(dir);
}

export function readClientBuild(dir: string): ClientBuild {
  const read = (f: string) => JSON.parse(fs.readFileSync(path.join(dir, '.vite', f), 'utf8'));
  return { dir, manifest: read('manifest.json') as Manifest, modules: read('modules.json') as Record<string, string[]> };
}

function keyOf(manifest: Manifest, test: (key: string, chunk: ManifestChunk) => boolean, what: string): string {
  const keys = Object.keys(manifest).filter((k) => test(k, manifest[k]));
  if (keys.length !== 1) throw new Error(`manifest: expected one chunk for ${what}, found ${keys.length}`);
  return keys[0];
}

/** `keys` and every chunk they import statically, recursively (manifest keys). */
export function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (k: string) => {
    if (seen.has(k)) return;
    if (!manifest[k]) throw new Error(`manifest: no chunk ${k}`);
    seen.add(k);
    for (const i of manifest[k].imports ?? []) visit(i);
  };
  keys.forEach(visit);
  return [...seen];
}

export const entryKey = (m: Manifest) => keyOf(m, (_k, c) => c.isEntry === true, 'the entry');

export interface Visit {
  /** Output files, assets/… */
  js: string[];
  css: string[];
}

/**
 * The files a cold visit to a page loads until idle. `page` is the page module as the router imports it lazily
 * (client-relative, e.g. src/features/auctions/pages/AuctionListPage.tsx); it must be one of the entry's dynamic
 * imports, so a renamed page fails here rather than weighing nothing.
 */
export function firstVisit(manifest: Manifest, page: string): Visit {
  const entry = entryKey(manifest);
  if (!manifest[entry].dynamicImports?.includes(page)) throw new Error(`manifest: the entry does not import ${page} lazily`);
  const socket = keyOf(manifest, (k, c) => c.isDynamicEntry === true && k.includes('node_modules/socket.io-client/'), 'socket.io-client');
  const keys = staticClosure(manifest, [entry, page, socket]);
  const css = new Set<string>();
  for (const k of keys) for (const c of manifest[k].css ?? []) css.add(c);
  return { js: keys.map((k) => manifest[k].file).filter((f) => f.endsWith('.js')), css: [...css] };
}

/** Sum of the gzip -9 sizes of `files` (relative to the client dir). */
export function gzipBytes(dir: string, files: string[]): number {
  return files.reduce((sum, f) => sum + zlib.gzipSync(fs.readFileSync(path.join(dir, f)), { level: 9 }).length, 0);
}

export function rawBytes(dir: string, files: string[]): number {
  return files.reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
}

/** Modules of classic zod (zod, zod/v4, zod/v4/classic, zod/v3); zod/mini and the core it shares are not. */
export const isClassicZod = (moduleId: string) => /(^|\/)node_modules\/zod\/(v4\/classic\/|v3\/|index\.|v4\/index\.)/.test(moduleId);
