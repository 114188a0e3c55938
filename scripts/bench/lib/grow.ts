/**
 * A database grown the way users grow it (issue 11): the real server started on an empty DATA_DIR, then
 * `auctions` auctions created through the HTTP API, each with one small image, by several logged-in sellers
 * a few requests at a time (RATE_LIMIT=0). Unlike seedBench (seed-100k.ts) nothing is written behind the
 * server's back except the sellers' user rows, and nothing runs `PRAGMA optimize` or ANALYZE: what statistics
 * the database has are the ones the server keeps itself.
 *
 *   npx tsx scripts/bench/lib/grow.ts <empty DATA_DIR> [auctions=20000] [concurrency=4]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqliteDriver } from '../../../server/db/sqlite-driver';
import sharp from 'sharp';
import { hashPassword } from '../../../server/features/accounts/passwords';
import { AUCTION_DURATIONS } from '@shared/rules/limits';
import { CATEGORY_VALUES } from '@shared/categories';
import { BENCH_PASSWORD } from '../seed-100k';
import { loginAll } from './client';
import { freshDataDir, startServer } from './proc';
import type { Identity } from '../loadgen/http-load';
import { ADJ, CITIES, NOUNS, rng } from './words';

export interface GrowOptions {
  auctions: number;
  /** Sellers, each logged in once through POST /api/login/ (default 20). */
  sellers?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** An empty (or absent) directory; default a fresh temporary one. */
  dataDir?: string;
  /** Run the server from the sources through tsx instead of dist. */
  source?: boolean;
  log?: (msg: string) => void;
}

export interface GrowResult {
  dir: string;
  auctions: number;
  sellers: { id: number; email: string }[];
  ms: number;
  /** Auctions (with their image) created per second. */
  perSecond: number;
}


/**
 * The sellers' rows: the only thing written straight into SQLite (WAL, next to the running server), since
 * registering through the API needs the e-mail link. Verified, password BENCH_PASSWORD.
 */
export async function insertSellers(dbFile: string, n: number, prefix = 'rast'): Promise<{ id: number; email: string }[]> {
  const hash = await hashPassword(BENCH_PASSWORD);
  const db = new (sqliteDriver())(dbFile);
  try {
    db.pragma('busy_timeout = 5000');
    const now = new Date().toISOString();
    const ins = db.prepare(
      `insert into users (first_name, email, phone_number, city, password_hash, google_sub, verified_at, is_admin, blocked_at, created_at)
       values (?, ?, '0641234567', ?, ?, null, ?, 0, null, ?)`,
    );
    const out: { id: number; email: string }[] = [];
    db.transaction(() => {
      for (let i = 1; i <= n; i++) {
        const email = `${prefix}${i}@bench.example`;
        out.push({ id: Number(ins.run(`Prodavac ${i}`, email, CITIES[i % CITIES.length], hash, now, now).lastInsertRowid), email });
      }
    })();
    return out;
  } finally {
    db.close();
  }
}

async function post(base: string, who: Identity, url: string, body: FormData): Promise<Response> {
  return fetch(base + url, { method: 'POST', headers: { cookie: who.cookie, 'x-csrftoken': who.csrf, origin: base }, body });
}

/** Starts the server on an empty DATA_DIR, creates the auctions through the API, stops the server. */
export async function growThroughApi(opts: GrowOptions): Promise<GrowResult> {
  const dir = opts.dataDir ?? freshDataDir('grown');
  fs.mkdirSync(dir, { recursive: true });
  if (fs.readdirSync(dir).length) throw new Error(`grow: ${dir} is not empty`);
  const server = await startServer({ dataDir: dir, source: opts.source });
  try {
    return await growOn(server.url, dir, opts);
  } finally {
    await server.stop();
  }
}

/**
 * Creates `opts.auctions` auctions through the API of a server already running on `dir` (B6g's "after
 * uploads" round grows a running server's database further). `sellerPrefix` names the new sellers'
 * e-mails (default "rast"; another one when the database already has those).
 */
export async function growOn(base: string, dir: string, opts: GrowOptions & { sellerPrefix?: string }): Promise<GrowResult> {
  const log = opts.log ?? (() => {});
  const sellers = await insertSellers(path.join(dir, 'aukcije.sqlite'), opts.sellers ?? 20, opts.sellerPrefix);
  const who = await loginAll(base, sellers.map((s) => s.email), BENCH_PASSWORD);
  const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 120, b: 40 } } }).png().toBuffer();
  const rand = rng(7);
  const t0 = Date.now();
  let next = 0;
  let done = 0;
  const one = async (i: number) => {
    const seller = who[i % who.length];
    const title = `${NOUNS[Math.floor(rand() * NOUNS.length)]} ${ADJ[Math.floor(rand() * ADJ.length)]} ${i + 1}`;
    const form = new FormData();
    form.append('title', title);
    form.append('description', `${title}: ${ADJ[Math.floor(rand() * ADJ.length)]} predmet u dobrom stanju, preuzimanje lično ili slanje poštom.`);
    form.append('current_price', String(100 + Math.floor(rand() * 100_000)));
    form.append('auction_duration', String(AUCTION_DURATIONS[Math.floor(rand() * AUCTION_DURATIONS.length)]));
    form.append('city', CITIES[i % CITIES.length]);
    form.append('phone_number', '0641234567');
    form.append('category', CATEGORY_VALUES[i % CATEGORY_VALUES.length]);
    const created = await post(base, seller, '/api/auctionItems/', form);
    const body = (await created.json()) as { id?: number };
    if (created.status !== 201 || !body.id) throw new Error(`grow: create answered ${created.status} ${JSON.stringify(body)}`);
    const files = new FormData();
    files.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), `slika-${i + 1}.png`);
    const up = await post(base, seller, `/api/auction-items/${body.id}/images/`, files);
    const upBody = await up.text();
    if (up.status < 200 || up.status > 299) throw new Error(`grow: image answered ${up.status} ${upBody.slice(0, 200)}`);
    done += 1;
    if (done % 1000 === 0) log(`grow: ${done} auctions, ${((done * 1000) / (Date.now() - t0)).toFixed(0)}/s`);
  };
  const worker = async () => {
    while (next < opts.auctions) await one(next++);
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  const ms = Date.now() - t0;
  return { dir, auctions: opts.auctions, sellers, ms, perSecond: (opts.auctions * 1000) / ms };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, n, c] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: npx tsx scripts/bench/lib/grow.ts <empty DATA_DIR> [auctions=20000] [concurrency=4]');
    process.exit(2);
  }
  growThroughApi({ dataDir: dir, auctions: Number(n ?? 20_000), concurrency: Number(c ?? 4), log: (m) => console.error(m) }).then(
    (r) => console.log(`grew ${r.auctions} auctions through the API in ${(r.ms / 1000).toFixed(1)} s (${r.perSecond.toFixed(1)}/s) in ${r.dir}`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
