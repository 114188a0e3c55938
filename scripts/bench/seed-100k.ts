/**
 * Seeds a benchmark database straight into SQLite in seconds: migrations, `sellers` sellers, `bidders`
 * verified bidders (password BENCH_PASSWORD), and `auctions` open auctions in one transaction with one
 * prepared statement (search_text via normaliseForSearch, like the server writes it). The schema is the server's
 * own (migrateToLatest) and its triggers stay on, so the seeder imports no migration and mirrors none.
 * The server must not be running on that DATA_DIR while this runs.
 *
 *   npx tsx scripts/bench/seed-100k.ts <DATA_DIR> [auctions=100000] [bidders=50]
 *
 * With DATABASE_URL set it seeds that PostgreSQL database instead (seedBenchPostgres).
 */
import path from 'node:path';
import { sql } from 'kysely';
import { fileURLToPath } from 'node:url';
import { migrateToLatest, openDatabase } from '../../server/db/connection';
import { openPostgresPool } from '../../server/db/postgres';
import { hashPassword } from '../../server/features/accounts/passwords';
import { CATEGORY_VALUES } from '@shared/categories';
import { normaliseForSearch } from '@shared/rules/search';
import { ADJ, CITIES, NOUNS, rng } from './lib/words';

export const BENCH_PASSWORD = 'BenchLozinka123';

export interface SeedResult {
  sellerIds: number[];
  bidders: { id: number; email: string }[];
  /** An auction open for 7 days with no bids: the hot auction of B1/B2/B7. */
  hotAuctionId: number;
  hotStartPrice: number;
  auctions: number;
  ms: number;
}


const WEEK_MS = 7 * 86_400_000;

/** The i-th benchmark auction (i ≥ 1), the same on both databases. */
function benchAuction(i: number, rand: () => number, now: number) {
  const title = `${NOUNS[Math.floor(rand() * NOUNS.length)]} ${ADJ[Math.floor(rand() * ADJ.length)]} ${i}`;
  const description = `${title}: ${ADJ[Math.floor(rand() * ADJ.length)]} predmet u dobrom stanju, preuzimanje lično ili slanje poštom. Šifra ${(i * 7919) % 100_000}.`;
  const price = 100 + Math.floor(rand() * 100_000);
  const end = new Date(now + 3_600_000 + Math.floor(rand() * WEEK_MS)).toISOString();
  return {
    seller: (sellerIds: number[]) => sellerIds[i % sellerIds.length]!,
    title,
    description,
    category: CATEGORY_VALUES[i % CATEGORY_VALUES.length]!,
    city: CITIES[i % CITIES.length]!,
    price,
    end,
    search_text: normaliseForSearch(`${title} ${description}`),
  };
}

interface SeedOptions {
  auctions: number;
  bidders?: number;
  sellers?: number;
  /** PostgreSQL instead of DATA_DIR's SQLite file (an empty, or migrated and empty, database). */
  databaseUrl?: string;
}

export async function seedBench(dataDir: string, opts: SeedOptions): Promise<SeedResult> {
  if (opts.databaseUrl) return seedBenchPostgres(opts.databaseUrl, opts);
  const t0 = Date.now();
  const handle = openDatabase(path.join(dataDir, 'aukcije.sqlite'));
  try {
    await migrateToLatest(handle.db);
    const sqlite = handle.sqlite;
    const hash = await hashPassword(BENCH_PASSWORD);
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const rand = rng(42);
    const insertUser = sqlite.prepare(
      `insert into users (first_name, email, phone_number, city, password_hash, google_sub, verified_at, is_admin, blocked_at, created_at)
       values (?, ?, '0641234567', ?, ?, null, ?, 0, null, ?)`,
    );
    // The rows go to a temporary table first and into auctions with one INSERT … SELECT: the database's own
    // triggers (search indexes, listed-auction counts: whatever the migrations defined) fire for every row, as
    // they do for the server, so the seeder knows no migration; within one statement FTS5 fills its indexes in
    // large batches (row by row, each statement would flush a tiny segment: ~4× slower).
    const columns = `seller_id, title, description, category, city, city_norm, phone_number, starting_price, current_price, bid_count,
         end_date, original_end_date, status, winner_id, search_text, seq, created_at, closed_at`;
    sqlite.exec(`create temp table seed_auctions as select ${columns} from auctions where 0`);
    const insertAuctionInto = (table: string) =>
      sqlite.prepare(`insert into ${table} (${columns}) values (?, ?, ?, ?, ?, ?, '0641234567', ?, ?, 0, ?, ?, 'active', null, ?, 0, ?, null)`);
    const insertAuction = insertAuctionInto('main.auctions');
    const stageAuction = insertAuctionInto('temp.seed_auctions');
    const sellerIds: number[] = [];
    const bidders: { id: number; email: string }[] = [];
    let hotAuctionId = 0;
    const hotStartPrice = 1000;
    sqlite.transaction(() => {
      const created = iso(now);
      for (let i = 0; i < (opts.sellers ?? 100); i++) {
        const r = insertUser.run(`Prodavac ${i + 1}`, `prodavac${i + 1}@bench.example`, CITIES[i % CITIES.length], hash, created, created);
        sellerIds.push(Number(r.lastInsertRowid));
      }
      for (let i = 0; i < (opts.bidders ?? 50); i++) {
        const email = `licitant${i + 1}@bench.example`;
        const r = insertUser.run(`Licitant ${i + 1}`, email, 'Beograd', hash, created, created);
        bidders.push({ id: Number(r.lastInsertRowid), email });
      }
      const hotEnd = iso(now + WEEK_MS);
      const hot = insertAuction.run(sellerIds[0], 'Vruća aukcija', 'Aukcija na kojoj se licitira u benchmarku.', CATEGORY_VALUES[0], 'Beograd', 'beograd', hotStartPrice, hotStartPrice, hotEnd, hotEnd, normaliseForSearch('Vruća aukcija Aukcija na kojoj se licitira u benchmarku.'), created);
      hotAuctionId = Number(hot.lastInsertRowid);
      for (let i = 1; i < opts.auctions; i++) {
        const a = benchAuction(i, rand, now);
        stageAuction.run(a.seller(sellerIds), a.title, a.description, a.category, a.city, normaliseForSearch(a.city), a.price, a.price, a.end, a.end, a.search_text, created);
      }
      sqlite.exec(`insert into main.auctions (${columns}) select ${columns} from temp.seed_auctions order by rowid`);
      sqlite.exec('drop table temp.seed_auctions');
    })();
    sqlite.pragma('optimize');
    return { sellerIds, bidders, hotAuctionId, hotStartPrice, auctions: opts.auctions, ms: Date.now() - t0 };
  } finally {
    await handle.close();
  }
}

/**
 * The PostgreSQL form: the same rows, inserted in batches through kysely, the database's triggers on (the
 * listed-auction counts stay in step as they do for the server); the trigram indexes need nothing (PostgreSQL
 * maintains them), and ANALYZE gives the planner its statistics at once.
 */
async function seedBenchPostgres(url: string, opts: SeedOptions): Promise<SeedResult> {
  const t0 = Date.now();
  const { db, end } = await openPostgresPool(url, { max: 2 });
  try {
    await migrateToLatest(db);
    const hash = await hashPassword(BENCH_PASSWORD);
    const now = Date.now();
    const created = new Date(now).toISOString();
    const rand = rng(42);
    const user = (first_name: string, email: string, city: string) => ({
      first_name, email, phone_number: '0641234567', city, password_hash: hash, google_sub: null, verified_at: created, is_admin: 0, blocked_at: null, created_at: created,
    });
    const sellers = Array.from({ length: opts.sellers ?? 100 }, (_, i) => user(`Prodavac ${i + 1}`, `prodavac${i + 1}@bench.example`, CITIES[i % CITIES.length]!));
    const sellerIds = (await db.insertInto('users').values(sellers).returning('id').execute()).map((r) => r.id);
    const bidderRows = Array.from({ length: opts.bidders ?? 50 }, (_, i) => user(`Licitant ${i + 1}`, `licitant${i + 1}@bench.example`, 'Beograd'));
    const bidders = (await db.insertInto('users').values(bidderRows).returning(['id', 'email']).execute()).map((r) => ({ id: r.id, email: r.email }));
    const hotStartPrice = 1000;
    const hotAuctionId = await db.transaction().execute(async (tx) => {
      const hotEnd = new Date(now + WEEK_MS).toISOString();
      const row = (seller_id: number, title: string, description: string, category: string, city: string, price: number, endDate: string, search_text: string) => ({
        seller_id, title, description, category, city, city_norm: normaliseForSearch(city), phone_number: '0641234567', starting_price: price, current_price: price,
        end_date: endDate, original_end_date: endDate, search_text, created_at: created,
      });
      const hotText = 'Aukcija na kojoj se licitira u benchmarku.';
      const hot = await tx
        .insertInto('auctions')
        .values(row(sellerIds[0]!, 'Vruća aukcija', hotText, CATEGORY_VALUES[0], 'Beograd', hotStartPrice, hotEnd, normaliseForSearch(`Vruća aukcija ${hotText}`)))
        .returning('id')
        .executeTakeFirstOrThrow();
      let batch = [];
      for (let i = 1; i < opts.auctions; i++) {
        const a = benchAuction(i, rand, now);
        batch.push(row(a.seller(sellerIds), a.title, a.description, a.category, a.city, a.price, a.end, a.search_text));
        if (batch.length === 1000 || i === opts.auctions - 1) {
          await tx.insertInto('auctions').values(batch).execute();
          batch = [];
        }
      }
      return hot.id;
    });
    await sql`VACUUM ANALYZE`.execute(db);
    return { sellerIds, bidders, hotAuctionId, hotStartPrice, auctions: opts.auctions, ms: Date.now() - t0 };
  } finally {
    await end();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, n, b] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: npx tsx scripts/bench/seed-100k.ts <DATA_DIR> [auctions=100000] [bidders=50]');
    process.exit(2);
  }
  seedBench(dir, { auctions: Number(n ?? 100_000), bidders: Number(b ?? 50), databaseUrl: process.env.DATABASE_URL || undefined }).then(
    (r) => console.log(`seeded ${r.auctions} auctions, ${r.bidders.length} bidders in ${r.ms} ms (hot auction ${r.hotAuctionId})`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
