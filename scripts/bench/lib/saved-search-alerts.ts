/**
 * The saved-search row (issue 28): matching a new auction against the saved searches must not slow creating it.
 * One database (1,000 auctions, `members` verified members). Phase A: a seller creates `creates` auctions one after
 * another through POST /api/auctionItems/ with no saved search stored. Then `searches` saved searches are stored
 * over the members: 80 % a word of the seeded auctions' vocabulary, 10 % a category with a 10,000-dinar price range
 * (about ten of these match every new auction: notified, then folded), 10 % a word in a city; and one search per
 * phase-B auction that matches it alone. Phase B repeats the creates on a restarted server.
 * Creates are paced (PACE_MS). Goals, from the same run: create p95 with the searches ≤ 1.5× without; p95 from the create request's start to
 * its target search's notification being stored ≤ 5 s (polled every 5 ms on a read-only connection).
 */
import path from 'node:path';
import { sqliteDriver } from '../../../server/db/sqlite-driver';
import { CATEGORY_VALUES } from '@shared/categories';
import { normaliseForSearch } from '@shared/rules/search';
import { BENCH_PASSWORD, seedBench } from '../seed-100k';
import type { BenchCtx } from './benchmarks';
import { login } from './client';
import type { Row } from './options';
import { freshDataDir, startServer } from './proc';
import { fmt, percentile, sleep } from './stats';
import { CITIES, NOUNS } from './words';

const WARMUP = 5;
/**
 * One create every PACE_MS in both phases (members create auctions at a human pace): the row measures whether the
 * matching slows a create, not how many creates a second the node sustains with ~10 notifications and mails each.
 */
const PACE_MS = 150;

/** Creates auction `k` as the seller; resolves with its id and the request's wall-clock start. */
async function createOne(base: string, who: { cookie: string; csrf: string }, k: number): Promise<{ id: number; started: number; ms: number }> {
  const started = Date.now();
  const t0 = performance.now();
  const res = await fetch(`${base}/api/auctionItems/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: who.cookie, 'x-csrftoken': who.csrf, origin: base },
    body: JSON.stringify({
      title: `Predmet oznaka${k}x`,
      description: 'Novi predmet iz benchmarka sačuvanih pretraga.',
      current_price: 1000 + ((k * 7919) % 50_000),
      auction_duration: 7,
      city: CITIES[k % CITIES.length],
      phone_number: '0641234567',
      category: CATEGORY_VALUES[k % CATEGORY_VALUES.length],
    }),
  });
  const body = (await res.json()) as { id?: number };
  if (res.status !== 201 || typeof body.id !== 'number') throw new Error(`create ${k}: ${res.status} ${JSON.stringify(body)}`);
  return { id: body.id, started, ms: performance.now() - t0 };
}

/** Stores the saved searches straight into the database (the server is stopped): `targets[k]` matches auction k alone. */
function storeSearches(file: string, members: number[], count: number, targets: number[]): Map<number, number> {
  const db = new (sqliteDriver())(file);
  const owners = new Map<number, number>();
  try {
    const ins = db.prepare(
      `insert into saved_searches (user_id, q, q_text, category, min_price, max_price, city, city_norm, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const now = new Date().toISOString();
    db.transaction(() => {
      targets.forEach((k, i) => {
        const user = members[i % members.length]!;
        owners.set(k, user);
        ins.run(user, `oznaka${k}x`, `oznaka${k}x`, null, null, null, null, null, now);
      });
      for (let i = targets.length; i < count; i++) {
        const user = members[i % members.length]!;
        const kind = i % 10;
        const noun = NOUNS[i % NOUNS.length]!;
        const low = (i * 104_729) % 60_000;
        const city = CITIES[i % CITIES.length]!;
        if (kind < 8) ins.run(user, noun, normaliseForSearch(noun), null, null, null, null, null, now);
        else if (kind === 8) ins.run(user, null, null, CATEGORY_VALUES[i % CATEGORY_VALUES.length], low, low + 10_000, null, null, now);
        else ins.run(user, noun, normaliseForSearch(noun), null, null, null, city, normaliseForSearch(city), now);
      }
    })();
  } finally {
    db.close();
  }
  return owners;
}

/** Runs `creates` creates after a warm-up; with `owners`, also waits for each target's notification. */
async function phase(ctx: BenchCtx, dir: string, sellerEmail: string, from: number, creates: number, owners?: Map<number, number>) {
  const server = await startServer({ dataDir: dir, source: ctx.source });
  const seen = new Map<number, number>();
  const firstSeen = new Map<string, number>();
  const pending = new Map<number, { started: number; user: number }>();
  const reader = owners ? new (sqliteDriver())(path.join(dir, 'aukcije.sqlite'), { readonly: true }) : undefined;
  const poll = reader?.prepare(`select id, auction_id, user_id from notifications where kind = 'saved_search' and id > ? order by id`);
  let lastId = 0;
  const look = () => {
    if (!poll) return;
    const rows = poll.all(lastId) as { id: number; auction_id: number; user_id: number }[];
    // Every row is kept with the time it was first seen: one may show before its create's answer was read.
    for (const r of rows) {
      lastId = r.id;
      if (!firstSeen.has(`${r.auction_id}:${r.user_id}`)) firstSeen.set(`${r.auction_id}:${r.user_id}`, Date.now());
    }
    for (const [id, p] of pending) {
      const at = firstSeen.get(`${id}:${p.user}`);
      if (at === undefined) continue;
      seen.set(id, at - p.started);
      pending.delete(id);
    }
  };
  const timer = owners ? setInterval(look, 5) : undefined;
  try {
    const seller = await login(server.url, sellerEmail, BENCH_PASSWORD);
    for (let k = 0; k < WARMUP; k++) await createOne(server.url, seller, 1_000_000 + from + k);
    const ms: number[] = [];
    for (let k = from; k < from + creates; k++) {
      const got = await createOne(server.url, seller, k);
      ms.push(got.ms);
      const user = owners?.get(k);
      if (user !== undefined) pending.set(got.id, { started: got.started, user });
      await sleep(Math.max(0, PACE_MS - (Date.now() - got.started)));
    }
    const until = Date.now() + 30_000;
    while (owners && pending.size > 0 && Date.now() < until) await sleep(20);
    look();
    return { createMs: ms, notifyMs: [...seen.values()], missing: pending.size };
  } finally {
    if (timer) clearInterval(timer);
    reader?.close();
    await server.stop();
  }
}

export async function savedSearchRow(ctx: BenchCtx): Promise<Row[]> {
  const { searches, members, creates } = ctx.sizes.ss;
  const dir = freshDataDir('ss');
  ctx.cleanup.push(dir);
  const seed = await seedBench(dir, { auctions: 1000, bidders: members, sellers: 10 });
  const [seller, ...others] = seed.bidders;
  const without = await phase(ctx, dir, seller!.email, 0, creates);
  const targets = Array.from({ length: creates }, (_, i) => creates + i);
  const owners = storeSearches(path.join(dir, 'aukcije.sqlite'), others.map((b) => b.id), searches, targets);
  const withSearches = await phase(ctx, dir, seller!.email, creates, creates, owners);
  const p95a = percentile(without.createMs, 95);
  const p95b = percentile(withSearches.createMs, 95);
  const notifyP95 = withSearches.notifyMs.length ? percentile(withSearches.notifyMs, 95) : Infinity;
  return [
    {
      id: 'SS create',
      what: `create an auction with ${fmt(searches, 0)} saved searches stored (${fmt(members, 0)} members), ${creates} creates`,
      subject: `p95 ${fmt(p95b, 1)} ms`,
      baseline: `p95 ${fmt(p95a, 1)} ms with none`,
      ratio: `${fmt(p95b / p95a, 2)}×`,
      goal: 'p95 ≤ 1.5× without',
      pass: p95b <= 1.5 * p95a,
    },
    {
      id: 'SS notify',
      what: 'from the create request to its saved search’s notification',
      subject: `p95 ${fmt(notifyP95, 0)} ms, ${withSearches.notifyMs.length}/${creates} notified`,
      baseline: '—',
      ratio: '—',
      goal: 'p95 ≤ 5 s, every one notified',
      pass: notifyP95 <= 5000 && withSearches.missing === 0,
      notes: withSearches.missing ? [`${withSearches.missing} targets not notified within 30 s`] : [],
    },
  ];
}
