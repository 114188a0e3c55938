/**
 * `npx tsx scripts/bench/admin-users-search.ts [users=100000]`: how long the admin's user search and paging
 * take (issue 11 §4). A substring search has no index to seek, so it scans users.search_text (migration
 * 2026-11-24-0600); the last line is the same search computing search_norm for every row instead (what the
 * stored copy saves). Temporary SQLite file, the real migrations and repository; medians of 15 runs after 3
 * warm-ups. No goal: figures to watch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '../../server/db/connection';
import { tempDir } from '../lib/harness/ports';
import { fillSearchText, listUsers, pageUsers } from '../../server/features/admin/admin-users.repository';
import { escapeLike, normaliseForSearch } from '../../shared/rules/search';

const N = Number(process.argv[2] ?? 100_000);
const NAMES = ['Đorđe', 'Šćepan', 'Marija', 'Milica', 'Nikola', 'Jelena', 'Čedomir', 'Žaklina', 'Ivana', 'Luka'];

async function main() {
  const dir = tempDir('aukcije-bench-users-');
  const h = openDatabase(path.join(dir, 'aukcije.sqlite'));
  try {
    await migrateToLatest(h.db);
    const insert = h.sqlite.prepare(
      "INSERT INTO users (first_name, email, phone_number, city, password_hash, verified_at, is_admin, created_at) VALUES (?, ?, '0641234567', 'Beograd', 'x', ?, 0, ?)",
    );
    const now = new Date().toISOString();
    h.sqlite.transaction(() => {
      for (let i = 0; i < N; i++) insert.run(`${NAMES[i % NAMES.length]} ${i}`, `korisnik${i}@primer${i % 50}.rs`, now, now);
    })();
    const time = async (label: string, fn: () => Promise<unknown>) => {
      for (let i = 0; i < 3; i++) await fn();
      const ms: number[] = [];
      for (let i = 0; i < 15; i++) {
        const t0 = process.hrtime.bigint();
        await fn();
        ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      ms.sort((a, b) => a - b);
      console.log(`${label.padEnd(44)} median ${ms[7].toFixed(2)} ms   p90 ${ms[13].toFixed(2)} ms`);
    };
    const f = (q: string) => ({ search: escapeLike(normaliseForSearch(q)) });
    console.log(`${N} users, node ${process.version}, ${os.cpus().length} cpus (shared machine: figures are noisy)`);
    {
      const t0 = process.hrtime.bigint();
      await fillSearchText(h.db);
      console.log(`${'first search: fills search_text of every user'.padEnd(44)} once  ${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(0)} ms`);
    }
    await time('fill again (nothing missing)', () => fillSearchText(h.db));
    await time('page 1, no search (count + page)', () => pageUsers(h.db, {}, 20, 0));
    await time('page 100, no search', () => pageUsers(h.db, {}, 20, 1980));
    await time('search "scepan" page 1 (10% match)', () => pageUsers(h.db, f('scepan'), 20, 0));
    await time('search "korisnik4242@" page 1 (one match)', () => pageUsers(h.db, f('korisnik4242@'), 20, 0));
    await time('search "nema" page 1 (no match)', () => pageUsers(h.db, f('nema'), 20, 0));
    await time('search "scepan", plain list (no page)', () => listUsers(h.db, f('scepan')));
    const perRow = h.sqlite.prepare("select count(*) from users where search_norm(first_name || char(1) || email) like '%korisnik4242@%'");
    await time('count "korisnik4242@", search_norm per row', async () => perRow.get());
  } finally {
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
