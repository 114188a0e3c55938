/**
 * Issue 21, part 1: what a phone downloads on a first visit, checked on the production client built from the
 * current sources (tests/support/first-load.ts). Deterministic, unlike B5 (which weighs the same routes in
 * Chromium): the manifest says which chunks load, gzip -9 weighs them.
 * - /aukcije and /aukcija/{id} each stay within 130 KiB of gzip -9 JS (the figures, 178.3 KB before,
 *   are KiB): entry and its static imports, the page chunk and its static imports, and socket.io-client,
 *   which the live layer loads after the first render.
 * - No classic zod anywhere in that (forms validate in the chunks of their pages).
 * - The server sends assets precompressed (br, else gzip, else as they are) with Vary: Accept-Encoding, the
 *   hashed ones cached for a year as immutable, while index.html keeps revalidating.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickEncoding } from '../../server/http/precompressed';
import { startTestServer, type TestServer } from '../support/app';
import { buildClient, entryKey, firstVisit, gzipBytes, isClassicZod, staticClosure, type ClientBuild } from '../support/first-load';

const BUDGET = 130 * 1024;
const ROUTES = [
  { route: '/aukcije', page: 'src/features/auctions/pages/AuctionListPage.tsx' },
  { route: '/aukcija/{id}', page: 'src/features/auctions/pages/AuctionDetailPage.tsx' },
];

let client: ClientBuild;
beforeAll(async () => {
  client = await buildClient();
}, 120_000);
afterAll(() => {
  if (client) fs.rmSync(client.dir, { recursive: true, force: true });
});

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const classicZodIn = (files: string[]) => files.flatMap((f) => (client.modules[f] ?? []).filter(isClassicZod).map((m) => `${f}: ${m}`));

describe('first visit (production build)', () => {
  for (const { route, page } of ROUTES) {
    it(`${route}: at most 130 KiB of gzip -9 JS`, () => {
      const visit = firstVisit(client.manifest, page);
      const js = gzipBytes(client.dir, visit.js);
      const detail = visit.js.map((f) => `${f} ${kib(gzipBytes(client.dir, [f]))}`).join(', ');
      expect(js, `${route}: JS ${kib(js)} (CSS ${kib(gzipBytes(client.dir, visit.css))}): ${detail}`).toBeLessThanOrEqual(BUDGET);
    });
  }

  it('no classic zod in the entry, its static imports, or either route', () => {
    const { manifest } = client;
    const entryFiles = staticClosure(manifest, [entryKey(manifest)]).map((k) => manifest[k].file);
    expect(classicZodIn(entryFiles)).toEqual([]);
    for (const { page } of ROUTES) expect(classicZodIn(firstVisit(manifest, page).js)).toEqual([]);
  });

  it('the zod check sees zod where it is: the create-auction form validates with it', () => {
    const files = staticClosure(client.manifest, ['src/features/auctions/pages/CreateAuctionPage.tsx']).map((k) => client.manifest[k].file);
    expect(classicZodIn(files).length).toBeGreaterThan(0);
  });
});

describe('pickEncoding', () => {
  const both = ['br', 'gzip'] as const;
  it('prefers br, then gzip, whatever order the client lists them in; else the file as it is', () => {
    expect(pickEncoding('gzip, deflate, br, zstd', both)).toBe('br');
    expect(pickEncoding('gzip', both)).toBe('gzip');
    expect(pickEncoding('x-gzip', both)).toBe('gzip');
    expect(pickEncoding('gzip, deflate, br', ['gzip'])).toBe('gzip');
    expect(pickEncoding(undefined, both)).toBeNull();
    expect(pickEncoding('', both)).toBeNull();
    expect(pickEncoding('identity', both)).toBeNull();
    expect(pickEncoding('deflate', both)).toBeNull();
  });

  it('honours q-values and *', () => {
    expect(pickEncoding('br;q=0, gzip', both)).toBe('gzip');
    expect(pickEncoding('BR; Q=0.5, gzip;q=1', both)).toBe('br');
    expect(pickEncoding('gzip;q=0, br;q=0', both)).toBeNull();
    expect(pickEncoding('*', both)).toBe('br');
    expect(pickEncoding('br;q=0, *;q=0.1', both)).toBe('gzip');
    expect(pickEncoding('*;q=0', both)).toBeNull();
  });
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose body is not decoded (fetch would undo the Content-Encoding this checks). */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('how the server sends the built client', () => {
  let t: TestServer;
  const before = process.env.CLIENT_DIR;
  beforeAll(async () => {
    process.env.CLIENT_DIR = client.dir; // read by serveClient (server/http/spa.ts) when the app is created
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
    if (before === undefined) delete process.env.CLIENT_DIR;
    else process.env.CLIENT_DIR = before;
  });

  const CHROME = 'gzip, deflate, br, zstd';
  const assets = () => {
    const visit = firstVisit(client.manifest, ROUTES[0].page);
    return [
      { file: client.manifest[entryKey(client.manifest)].file, type: 'text/javascript; charset=utf-8' },
      { file: visit.css[0], type: 'text/css; charset=utf-8' },
    ];
  };
  const bytes = (f: string) => fs.readFileSync(path.join(client.dir, f));

  it('hashed JS and CSS: br when accepted, gzip when only gzip, as they are otherwise; Vary and a year immutable', async () => {
    for (const { file, type } of assets()) {
      const url = `${t.url}/${file}`;
      const cases = [
        { accept: CHROME, encoding: 'br', body: bytes(`${file}.br`) },
        { accept: 'gzip', encoding: 'gzip', body: bytes(`${file}.gz`) },
        { accept: 'identity', encoding: undefined, body: bytes(file) },
        { accept: undefined, encoding: undefined, body: bytes(file) },
      ];
      for (const c of cases) {
        const res = await raw(url, c.accept === undefined ? {} : { 'accept-encoding': c.accept });
        const what = `${file} with Accept-Encoding ${c.accept ?? '(none)'}`;
        expect(res.status, what).toBe(200);
        expect(res.headers['content-encoding'], what).toBe(c.encoding);
        expect(res.headers['content-type'], what).toBe(type);
        expect(res.headers['content-length'], what).toBe(String(c.body.length));
        expect(res.body.equals(c.body), what).toBe(true);
        expect(res.headers.vary, what).toMatch(/accept-encoding/i);
        expect(res.headers['cache-control'], what).toBe('public, max-age=31536000, immutable');
      }
      // What arrives decodes to the built file.
      const br = await raw(url, { 'accept-encoding': CHROME });
      expect(zlib.brotliDecompressSync(br.body).equals(bytes(file))).toBe(true);
      const gz = await raw(url, { 'accept-encoding': 'gzip' });
      expect(zlib.gunzipSync(gz.body).equals(bytes(file))).toBe(true);
    }
  });

  it('HEAD and a revalidation get the same negotiation', async () => {
    const [{ file }] = assets();
    const url = `${t.url}/${file}`;
    const head = await raw(url, { 'accept-encoding': CHROME }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(bytes(`${file}.br`).length));
    expect(head.body.length).toBe(0);
    const first = await raw(url, { 'accept-encoding': CHROME });
    const again = await raw(url, { 'accept-encoding': CHROME, 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.headers.vary).toMatch(/accept-encoding/i);
    // Each encoding is its own representation: the identity file's ETag differs from the br copy's.
    expect((await raw(url)).headers.etag).not.toBe(first.headers.etag);
  });

  it('files outside assets/ are compressed too but keep an hour; index.html and the SPA routes revalidate', async () => {
    const icon = await raw(`${t.url}/favicon.svg`, { 'accept-encoding': CHROME });
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(icon.headers['content-encoding']).toBe('br');
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
    for (const p of ['/', '/aukcije', '/aukcija/1']) {
      const page = await raw(t.url + p, { 'accept-encoding': CHROME });
      expect(page.status, p).toBe(200);
      expect(page.headers['content-type'], p).toMatch(/^text\/html/);
      expect(page.headers['cache-control'], p).toBe('no-cache');
      expect(page.headers['content-encoding'], p).toBeUndefined();
    }
  });

  it('a missing asset, or the .vite/ folder of the build, falls through to the page, with no encoding claimed', async () => {
    for (const p of ['/assets/nema-ovoga-abc123.js', '/.vite/manifest.json', '/.vite/modules.json']) {
      const res = await raw(t.url + p, { 'accept-encoding': CHROME });
      expect(res.headers['content-encoding'], p).toBeUndefined();
      expect(res.headers['content-type'], p).toMatch(/^text\/html/);
    }
  });
});
