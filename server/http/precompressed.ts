import fs from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler } from 'express';

type Encoding = 'br' | 'gzip';
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * The encoding to send from an Accept-Encoding header: br when acceptable, else gzip, else null (the file as it
 * is). A coding is acceptable when named with q > 0, or covered by `*` with q > 0 and not named.
 */
export function pickEncoding(header: string | undefined, available: readonly Encoding[]): Encoding | null {
  const q = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(value) ? value : 0);
  }
  const accepts = (e: Encoding) => (q.get(e) ?? q.get('*') ?? 0) > 0;
  return (['br', 'gzip'] as const).find((e) => available.includes(e) && accepts(e)) ?? null;
}

/** The file below `root` that a request path names, or null when it cannot be one (outside, undecodable). */
function fileFor(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = path.join(root, decoded);
  return file.startsWith(root + path.sep) ? file : null;
}

const isFile = (p: string) => fs.statSync(p, { throwIfNoEntry: false })?.isFile() === true;

/**
 * express.static for a folder whose text files have .br and .gz copies beside them (scripts/precompress.mjs):
 * a file with copies is answered with `Vary: Accept-Encoding`, and with the best copy the client accepts
 * (Content-Encoding, the original's Content-Type, the copy's Content-Length and ETag). Everything else (ranges,
 * conditional requests, caching headers, fall-through) is express.static's.
 */
export function precompressedStatic(dir: string, options: Parameters<typeof express.static>[1]): RequestHandler {
  const root = path.resolve(dir);
  const serve = express.static(root, options);
  return (req, res, next) => {
    const file = req.method === 'GET' || req.method === 'HEAD' ? fileFor(root, req.path) : null;
    const available = file ? (Object.keys(SUFFIX) as Encoding[]).filter((e) => isFile(file + SUFFIX[e])) : [];
    if (!file || available.length === 0) return serve(req, res, next);
    res.vary('Accept-Encoding');
    const encoding = pickEncoding(req.headers['accept-encoding'], available);
    if (!encoding) return serve(req, res, next);
    const url = req.url;
    const q = url.indexOf('?');
    req.url = q === -1 ? url + SUFFIX[encoding] : url.slice(0, q) + SUFFIX[encoding] + url.slice(q);
    res.setHeader('Content-Encoding', encoding);
    res.type(path.extname(file));
    serve(req, res, (err?: unknown) => {
      // The copy went away under us (a rebuild): the next handler answers as if there had been none.
      req.url = url;
      res.removeHeader('Content-Encoding');
      res.removeHeader('Content-Type');
      next(err);
    });
  };
}
