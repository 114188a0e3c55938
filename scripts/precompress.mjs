// Brotli and gzip copies of the built client's text assets (file.js → file.js.br, file.js.gz), made once at
// build time so the server sends them as they are (server/http/precompressed.ts) instead of compressing per
// request or not at all (issue 21).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|xml|webmanifest|map)$/;

const brotli = (buf) =>
  zlib.brotliCompressSync(buf, {
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buf.length,
    },
  });
const gzip = (buf) => zlib.gzipSync(buf, { level: zlib.constants.Z_BEST_COMPRESSION });

function* files(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue; // .vite/ (manifest) is never served
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else yield p;
  }
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file below `dir`, each only when smaller than the
 * file itself. index.html is left out: the server sends it from memory, with share tags added per auction.
 * Returns how many files it compressed.
 */
export function precompress(dir) {
  let count = 0;
  for (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file) || path.relative(dir, file) === 'index.html') continue;
    const buf = fs.readFileSync(file);
    for (const [ext, compress] of [['.br', brotli], ['.gz', gzip]]) {
      const out = compress(buf);
      if (out.length < buf.length) fs.writeFileSync(file + ext, out);
    }
    count++;
  }
  return count;
}
