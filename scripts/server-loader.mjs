// dist/server/index.js (scripts/build.mjs copies this file there): runs the server bundle dist/server/server.cjs
// with a V8 code cache, so that a start does not parse and compile 5 MB of JavaScript again (about a third of
// the CPU time of a start, docs/performance.md "B4 as users run it"). Node 22's module.enableCompileCache()
// does the same for modules; Node 20 has it only for vm.Script, which is what this uses.
//
// The cache (dist/server/server.cjs.v8cache) is written once the server listens, when none matched. It is
// keyed by what V8 does not check itself: V8 accepts a cache for any source of the same length, so the key
// holds the bundle's content hash (from the build), its size and mtime, and Node's version and arch. Any
// mismatch, a cache V8 rejects, or a cache that cannot be read or written only costs the compile.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import Module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const BUNDLE_HASH = '__BUNDLE_HASH__';
const dir = path.dirname(fileURLToPath(import.meta.url));
const file = path.join(dir, 'server.cjs');
const cacheFile = `${file}.v8cache`;

const source = fs.readFileSync(file, 'utf8');
const st = fs.statSync(file);
const key = `aukcije-v8cache ${BUNDLE_HASH} ${st.size} ${st.mtimeMs} ${process.version} ${process.arch}\n`;

let cachedData;
try {
  const buf = fs.readFileSync(cacheFile);
  const nl = buf.indexOf(10);
  if (nl > 0 && buf.toString('latin1', 0, nl + 1) === key) cachedData = buf.subarray(nl + 1);
} catch {
  // no cache yet
}

// The bundle has no import() (scripts/build.mjs lowers it to require), so no importModuleDynamically.
const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });

const require = createRequire(file);
const mod = { exports: {}, id: file, filename: file, loaded: false, path: dir, paths: [], require, children: [] };
script.runInThisContext().call(mod.exports, mod.exports, require, mod, file, dir);

if (!cachedData || script.cachedDataRejected) {
  // After the start, so that the functions compiled while starting are in the cache too.
  Promise.resolve(mod.exports.ready)
    .then(() => new Promise((r) => setImmediate(r)))
    .then(() => {
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      try {
        fs.writeFileSync(tmp, Buffer.concat([Buffer.from(key, 'latin1'), script.createCachedData()]));
        fs.renameSync(tmp, cacheFile);
      } catch {
        // read-only dist: the next start compiles again
        fs.rmSync(tmp, { force: true });
      }
    })
    .catch(() => undefined);
}
