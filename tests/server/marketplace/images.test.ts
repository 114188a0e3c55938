import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser, loginAs } from '../../support/factories';
import { createAuction } from '../../support/auctions';
import { ApiClient } from '../../support/http';
import { HTML_BYTES, imagesForm, jpegWithGps, pngBuffer } from '../../support/images';

let t: TestServer;
let png: Buffer;
beforeAll(async () => {
  t = await startTestServer();
  png = await pngBuffer();
});
afterAll(async () => {
  await t.close();
});

async function sellerWithAuction() {
  const user = await createUser(t.ctx);
  const client = await loginAs(t.url, user);
  const auction = await createAuction(t.ctx, user.id);
  return { user, client, auction, path: `/api/auction-items/${auction.id}/images/` };
}

function mediaFile(url: string): string {
  expect(url).toMatch(/^\/media\/[0-9a-f]{2}\/[0-9a-f]{32}-(card|large)\.webp$/);
  return path.join(t.dataDir, url.replace(/^\/media\//, 'media/'));
}

describe('POST /api/auction-items/{id}/images/', () => {
  it('refuses a visitor (403) and a user who is not the seller (403)', async () => {
    const { path: p } = await sellerWithAuction();
    expect((await new ApiClient(t.url).post(p, imagesForm([{ name: 'a.png', data: png }]))).status).toBe(403);
    const other = await loginAs(t.url, await createUser(t.ctx));
    const res = await other.post(p, imagesForm([{ name: 'a.png', data: png }]));
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('Samo prodavac može menjati slike ove aukcije.');
  });

  it('404s for an unknown auction', async () => {
    const { client } = await sellerWithAuction();
    expect((await client.post('/api/auction-items/999999/images/', imagesForm([{ name: 'a.png', data: png }]))).status).toBe(404);
  });

  it('stores card and large WebP versions under server-made names, in upload order → 201', async () => {
    const { client, path: p, auction } = await sellerWithAuction();
    const big = await pngBuffer(3000, 1500, { r: 0, g: 200, b: 0 });
    const res = await client.post(p, imagesForm([{ name: 'prva.png', data: big }, { name: '../../etc/passwd.png', data: png }]));
    expect(res.status).toBe(201);
    expect(res.body.images).toHaveLength(2);
    const [first, second] = res.body.images;
    const large = await sharp(mediaFile(first.image)).metadata();
    expect(large.format).toBe('webp');
    expect([large.width, large.height]).toEqual([1600, 800]);
    const card = await sharp(mediaFile(first.thumbnail)).metadata();
    expect([card.width, card.height]).toEqual([480, 360]);
    expect(fs.existsSync(mediaFile(second.image))).toBe(true);
    const detail = (await client.get(`/api/auction/${auction.id}/`)).body;
    expect(detail.images.map((i: { id: number }) => i.id)).toEqual([first.id, second.id]);
    const list = (await client.get('/api/auctions/')).body;
    expect(list.find((c) => c.id === auction.id)?.first_image).toBe(first.thumbnail);
  });

  it('serves the stored file from /media with a long cache, image/webp and nosniff', async () => {
    const { client, path: p } = await sellerWithAuction();
    const { images } = (await client.post(p, imagesForm([{ name: 'a.png', data: png }]))).body;
    const res = await fetch(t.url + images[0].image);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toMatch(/max-age=31536000/);
    expect(res.headers.get('cache-control')).toMatch(/immutable/);
  });

  it('never serves files outside DATA_DIR/media (path traversal)', async () => {
    for (const p of ['/media/..%2Faukcije.sqlite', '/media/%2e%2e/aukcije.sqlite', '/media/../aukcije.sqlite']) {
      const res = await fetch(t.url + p);
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.subarray(0, 15).toString()).not.toBe('SQLite format 3');
    }
  });

  it('accepts a PNG named .txt and sent as text/plain (content decides)', async () => {
    const { client, path: p } = await sellerWithAuction();
    const res = await client.post(p, imagesForm([{ name: 'beleska.txt', data: png, type: 'text/plain' }]));
    expect(res.status).toBe(201);
    expect(res.body.images).toHaveLength(1);
  });

  it('refuses an HTML file named .jpg with a Serbian message naming it, and stores nothing', async () => {
    const { client, path: p, auction } = await sellerWithAuction();
    const res = await client.post(p, imagesForm([{ name: 'a.png', data: png }, { name: 'slika.jpg', data: HTML_BYTES, type: 'image/jpeg' }]));
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('slika.jpg nije podržana slika. Dozvoljeni su JPEG, PNG, WebP i GIF.');
    expect(res.body.message).toBe(res.body.detail);
    expect((await client.get(`/api/auction/${auction.id}/`)).body.images).toEqual([]);
    const utf8 = await client.post(p, imagesForm([{ name: 'šešir đak.jpg', data: HTML_BYTES }]));
    expect(utf8.body.detail).toBe('šešir đak.jpg nije podržana slika. Dozvoljeni su JPEG, PNG, WebP i GIF.');
  });

  it('accepts WebP and GIF too', async () => {
    const { client, path: p } = await sellerWithAuction();
    const webp = await sharp(png).webp().toBuffer();
    const gif = await sharp(png).gif().toBuffer();
    const res = await client.post(p, imagesForm([{ name: 'a.webp', data: webp }, { name: 'b.gif', data: gif }]));
    expect(res.status).toBe(201);
    expect(res.body.images).toHaveLength(2);
  });

  it('applies the EXIF orientation before dropping it (a portrait photo stays upright)', async () => {
    const { client, path: p } = await sellerWithAuction();
    const sideways = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#08f' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const res = await client.post(p, imagesForm([{ name: 'portret.jpg', data: sideways }]));
    const meta = await sharp(mediaFile(res.body.images[0].image)).metadata();
    expect([meta.width, meta.height]).toEqual([100, 200]);
    expect(meta.orientation).toBeUndefined();
  });

  it('refuses a truncated PNG (right magic bytes, broken content)', async () => {
    const { client, path: p } = await sellerWithAuction();
    const res = await client.post(p, imagesForm([{ name: 'pola.png', data: png.subarray(0, 60) }]));
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^pola\.png nije podržana slika/);
  });

  it('refuses an SVG (not one of the accepted kinds)', async () => {
    const { client, path: p } = await sellerWithAuction();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    expect((await client.post(p, imagesForm([{ name: 'x.svg', data: svg, type: 'image/svg+xml' }]))).status).toBe(400);
  });

  it('refuses 7 images at once with the spec message', async () => {
    const { client, path: p } = await sellerWithAuction();
    const files = Array.from({ length: 7 }, (_, i) => ({ name: `s${i}.png`, data: png }));
    const res = await client.post(p, imagesForm(files));
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('Maksimalno možete odabrati 6 slika.');
  });

  it('accepts 6 in total, then refuses one more', async () => {
    const { client, path: p } = await sellerWithAuction();
    expect((await client.post(p, imagesForm(Array.from({ length: 4 }, (_, i) => ({ name: `s${i}.png`, data: png }))))).status).toBe(201);
    const res = await client.post(p, imagesForm([1, 2, 3].map((i) => ({ name: `t${i}.png`, data: png }))));
    expect(res.status).toBe(400);
    expect(res.body.image).toEqual(['Maksimalno možete odabrati 6 slika.']);
    expect((await client.post(p, imagesForm([1, 2].map((i) => ({ name: `u${i}.png`, data: png }))))).status).toBe(201);
    expect((await client.post(p, imagesForm([{ name: 'v.png', data: png }]))).status).toBe(400);
  });

  it('refuses a request without any image', async () => {
    const { client, path: p } = await sellerWithAuction();
    const res = await client.post(p, new FormData());
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('Morate odabrati barem jednu sliku.');
  });

  it('accepts exactly 6 MB and refuses 6 MB + 1 byte with the spec message naming the file', async () => {
    const { client, path: p } = await sellerWithAuction();
    const limit = 6 * 1024 * 1024;
    // A valid PNG padded after IEND to the exact size: decoders ignore trailing bytes.
    const exact = Buffer.concat([png, Buffer.alloc(limit - png.length)]);
    expect((await client.post(p, imagesForm([{ name: 'tacno.png', data: exact }]))).status).toBe(201);
    const over = Buffer.concat([png, Buffer.alloc(limit + 1 - png.length)]);
    const res = await client.post(p, imagesForm([{ name: 'velika.png', data: over }]));
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('velika.png prelazi veličinu ograničenja od 6 MB.');
  });

  it('drops EXIF (GPS included) from a JPEG', async () => {
    const { client, path: p } = await sellerWithAuction();
    const jpeg = await jpegWithGps();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const res = await client.post(p, imagesForm([{ name: 'gps.jpg', data: jpeg, type: 'image/jpeg' }]));
    expect(res.status).toBe(201);
    for (const url of [res.body.images[0].image, res.body.images[0].thumbnail]) {
      const bytes = fs.readFileSync(mediaFile(url));
      const meta = await sharp(bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(bytes.includes(Buffer.from('TestCam'))).toBe(false);
    }
  });

  it('refuses a pixel bomb (more than 40 megapixels) before decoding it', async () => {
    const { client, path: p } = await sellerWithAuction();
    const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } }).png({ compressionLevel: 9 }).toBuffer();
    const res = await client.post(p, imagesForm([{ name: 'bomba.png', data: bomb }]));
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('bomba.png ima previše piksela (najviše 40 megapiksela).');
  });
});

describe('PUT /api/auction-items/{id}/images/order/ and DELETE one image', () => {
  it('reorders for the seller and refuses an incomplete list', async () => {
    const { client, path: p, auction } = await sellerWithAuction();
    const { images } = (await client.post(p, imagesForm([1, 2, 3].map((i) => ({ name: `s${i}.png`, data: png }))))).body;
    const ids = images.map((i: { id: number }) => i.id);
    const reversed = [...ids].reverse();
    const res = await client.put(`${p}order/`, { image_ids: reversed });
    expect(res.status).toBe(200);
    expect((await client.get(`/api/auction/${auction.id}/`)).body.images.map((i: { id: number }) => i.id)).toEqual(reversed);
    const bad = await client.put(`${p}order/`, { image_ids: ids.slice(0, 2) });
    expect(bad.status).toBe(400);
    expect(bad.body.image_ids).toEqual(['Redosled slika nije ispravan: navedite svaku sliku aukcije tačno jednom.']);
    const other = await loginAs(t.url, await createUser(t.ctx));
    expect((await other.put(`${p}order/`, { image_ids: reversed })).status).toBe(403);
  });

  it('deletes one image and its files', async () => {
    const { client, path: p, auction } = await sellerWithAuction();
    const { images } = (await client.post(p, imagesForm([1, 2].map((i) => ({ name: `s${i}.png`, data: png }))))).body;
    const file = mediaFile(images[0].image);
    expect((await client.delete(`${p}${images[0].id}/`)).status).toBe(204);
    expect(fs.existsSync(file)).toBe(false);
    expect((await client.get(`/api/auction/${auction.id}/`)).body.images.map((i: { id: number }) => i.id)).toEqual([images[1].id]);
    expect((await client.delete(`${p}${images[0].id}/`)).status).toBe(404);
  });

  it('deleting the auction removes its image files', async () => {
    const { client, path: p, auction } = await sellerWithAuction();
    const { images } = (await client.post(p, imagesForm([{ name: 's.png', data: png }]))).body;
    const file = mediaFile(images[0].thumbnail);
    expect(fs.existsSync(file)).toBe(true);
    expect((await client.delete(`/api/auctionItems/delete/${auction.id}/`)).status).toBe(204);
    expect(fs.existsSync(file)).toBe(false);
  });
});
