/**
 * Uploads (issue 7 §5, ASVS 5.0 V5): a corpus of hostile files is refused with 400 JSON or neutralised
 * (decoded and re-encoded to WebP: nothing of the original bytes, metadata or name survives); stored
 * names are the server's; nothing lands outside DATA_DIR/media; files are served with their sniffed
 * type and `nosniff`. The basic cases (size limit, count, reorder) are in tests/server/marketplace/images.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/app';
import { imagesForm } from '../support/images';
import { hostileCorpus, type HostileFile } from '../support/security-files';
import { listFiles } from '../support/security-routes';
import { auctionOf, buildWorld, type World } from '../support/security-world';

let t: TestServer;
let w: World;
let corpus: HostileFile[];
const outsideBefore = new Set<string>();

/** Every file in DATA_DIR that is not under media/ and not the database or the outbox. */
const outsideMedia = () => listFiles(t.dataDir).filter((f) => !f.startsWith(`media${path.sep}`) && !f.startsWith('aukcije.sqlite') && !f.startsWith(`outbox${path.sep}`));
const STORED_NAME = /^[A-Za-z0-9_-]{1,8}\/[A-Za-z0-9_-]{16,}(-[a-z]+)?\.webp$/;

beforeAll(async () => {
  t = await startTestServer();
  w = await buildWorld(t);
  corpus = await hostileCorpus();
  for (const f of outsideMedia()) outsideBefore.add(f);
});
afterAll(() => t?.close());

describe('hostile uploads', () => {
  it('the corpus has at least 20 files, refused and neutralised kinds both', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
    expect(corpus.filter((f) => f.expect === 'refuse').length).toBeGreaterThanOrEqual(10);
    expect(corpus.filter((f) => f.expect === 'neutralise').length).toBeGreaterThanOrEqual(8);
  });

  it('each file is refused (400, nothing stored) or neutralised (re-encoded WebP under a server name)', async () => {
    const failures: string[] = [];
    for (const f of corpus) {
      const a = await auctionOf(t, w.seller.user!.id);
      const mediaBefore = listFiles(path.join(t.dataDir, 'media'));
      const res = await w.seller.api.post(`/api/auction-items/${a.id}/images/`, imagesForm([{ name: f.name, data: f.data, type: f.type }]));
      const rows = await t.ctx.db.selectFrom('auction_images').selectAll().where('auction_id', '=', a.id).execute();
      if (f.expect === 'refuse') {
        if (res.status !== 400) failures.push(`${f.label}: ${res.status} ${res.text.slice(0, 200)}`);
        expect(res.headers.get('content-type'), f.label).toMatch(/application\/json/);
        expect(rows, f.label).toEqual([]);
        expect(listFiles(path.join(t.dataDir, 'media')), f.label).toEqual(mediaBefore);
        // The message may name the file, but as JSON text; it never echoes the content.
        expect(res.text, f.label).not.toContain('document.cookie');
        continue;
      }
      if (res.status !== 201) {
        failures.push(`${f.label}: ${res.status} ${res.text.slice(0, 200)}`);
        continue;
      }
      expect(rows.length, f.label).toBe(1);
      for (const rel of [rows[0].card_path, rows[0].large_path]) {
        expect(rel, f.label).toMatch(STORED_NAME);
        const abs = path.resolve(t.dataDir, 'media', rel);
        expect(abs.startsWith(path.join(t.dataDir, 'media') + path.sep), f.label).toBe(true);
        const bytes = fs.readFileSync(abs);
        const meta = await sharp(bytes).metadata();
        expect(meta.format, f.label).toBe('webp');
        expect(meta.exif, `${f.label}: EXIF survived`).toBeUndefined();
        expect(meta.xmp, `${f.label}: XMP survived`).toBeUndefined();
        const latin = bytes.toString('latin1');
        for (const m of f.markers ?? []) expect(latin.includes(m), `${f.label}: '${m}' survived`).toBe(false);
        // Served with the sniffed type and nosniff, whatever the upload claimed to be.
        const served = await fetch(`${t.url}/media/${rel}`);
        expect(served.status).toBe(200);
        expect(served.headers.get('content-type')).toBe('image/webp');
        expect(served.headers.get('x-content-type-options')).toBe('nosniff');
        expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
      }
      expect(JSON.stringify(res.body), f.label).not.toMatch(/aukcije-evil|\.\.\/|<img|\\u0000/);
    }
    expect(failures).toEqual([]);
  });

  it('nothing was written outside DATA_DIR/media (nor next to it, nor in /tmp)', () => {
    expect(outsideMedia().filter((f) => !outsideBefore.has(f))).toEqual([]);
    for (const p of [path.join(os.tmpdir(), 'aukcije-evil.png'), path.resolve(t.dataDir, '..', 'aukcije-evil2.png'), path.resolve(t.dataDir, '..', '..', 'aukcije-evil2.png')]) {
      expect(fs.existsSync(p), p).toBe(false);
    }
  });

  it('a batch with one hostile file among good ones stores nothing at all', async () => {
    const a = await auctionOf(t, w.seller.user!.id);
    const good = corpus.find((f) => f.label === 'JPEG with EXIF GPS')!;
    const bad = corpus.find((f) => f.label === 'SVG with script renamed .png')!;
    const before = listFiles(path.join(t.dataDir, 'media'));
    const res = await w.seller.api.post(`/api/auction-items/${a.id}/images/`, imagesForm([good, good, bad].map((f) => ({ name: f.name, data: f.data, type: f.type }))));
    expect(res.status).toBe(400);
    expect(await t.ctx.db.selectFrom('auction_images').select('id').where('auction_id', '=', a.id).execute()).toEqual([]);
    expect(listFiles(path.join(t.dataDir, 'media'))).toEqual(before);
  });

  it('/media never serves a path outside the media folder, and never an HTML type', async () => {
    fs.writeFileSync(path.join(t.dataDir, 'secret.txt'), 'tajna');
    for (const p of ['/media/../secret.txt', '/media/%2e%2e/secret.txt', '/media/..%2fsecret.txt', '/media/%2e%2e%2faukcije.sqlite', '/media/....//secret.txt']) {
      const res = await fetch(t.url + p);
      const text = await res.text();
      expect(text, p).not.toContain('tajna');
      expect(text, p).not.toContain('SQLite format');
      expect(res.status, p).toBeLessThan(500);
    }
  });
});
