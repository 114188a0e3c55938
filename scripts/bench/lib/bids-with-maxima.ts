/**
 * B1auto (issue 14, "Tests and figures"): B1's load with half the bidders on maxima. On one server, three open
 * auctions, per round interleaved:
 * - baseline: B1's bidders on the first (every connection POSTs a bid at the known price + 10);
 * - B1auto: on the second, every other connection is a bidder on a maximum as users bid
 *   (scripts/bench/loadgen/max-bidders.ts): it sets one maximum (its last seen price + 100…300), re-reads the
 *   auction while it leads, and sets a new one only when beaten (`leading: false`, or a re-read shows the price
 *   above its maximum). Goal ≥ 0.8× the baseline's answers/s;
 * - B1auto tight (worst case, no goal): on the third, every other connection PUTs a new maximum (the known
 *   price + 10 … + 300) after every answer, in a tight loop no user runs.
 * Manual bidders learn the price from every answer's `current_price`. Checks on both auctions with maxima:
 * the history is a ladder (amounts unique, each above the previous, manual rows by ≥ 10), the detail's price
 * and count are its last row and its length, some rows are automatic, no errors.
 */
import type { HttpJob, HttpResult } from '../loadgen/http-load';
import type { UsersJob, UsersResult } from '../loadgen/max-bidders';
import { holdSockets, seeded, type BenchCtx } from './benchmarks';
import { getJson, loginAll } from './client';
import type { Row } from './options';
import { runLoad, startServer } from './proc';
import { fmt, median } from './stats';
import { BENCH_PASSWORD } from '../seed-100k';

interface HistoryRow {
  amount: number;
  auto: boolean;
}

/** What is wrong with a history as a ladder (empty when nothing). */
export function ladderProblems(rows: HistoryRow[], startPrice: number): string[] {
  const problems: string[] = [];
  const seen = new Set<number>();
  let previous = startPrice;
  rows.forEach((r, i) => {
    if (seen.has(r.amount)) problems.push(`row ${i + 1}: ${r.amount} repeats`);
    seen.add(r.amount);
    const floor = i === 0 || !r.auto ? previous + 10 : previous + 1;
    if (r.amount < floor) problems.push(`row ${i + 1}: ${r.amount} below ${floor}`);
    previous = r.amount;
  });
  return problems;
}

const bad = (rs: HttpResult[]) =>
  rs.reduce((s, r) => s + r.errors + r.timeouts + Object.entries(r.statuses).filter(([k]) => !['200', '201', '400'].includes(k)).reduce((a, [, v]) => a + v, 0), 0);

async function checkAuction(url: string, id: number, start: number, results: HttpResult[]) {
  const detail = await getJson<{ current_price: number; bid_count: number }>(`${url}/api/auction/${id}/`);
  const history = await getJson<HistoryRow[]>(`${url}/api/bids/${id}/`);
  const problems = ladderProblems(history, start);
  const checks = {
    ladder: problems.length === 0,
    detailIsLastRow: detail.current_price === (history.at(-1)?.amount ?? start) && detail.bid_count === history.length,
    someAutomaticRows: history.some((h) => h.auto),
    noErrors: bad(results) === 0,
  };
  const autoRows = history.filter((h) => h.auto).length;
  const text = `rows ${history.length} (${autoRows} automatic), price ${detail.current_price}; checks: ${Object.entries(checks)
    .map(([k, v]) => `${k}=${v ? 'ok' : 'FAIL'}`)
    .join(', ')}${problems.length ? `; ${problems.slice(0, 3).join('; ')}` : ''}`;
  return { checks, rows: history.length, autoRows, text };
}

const sum = (rs: HttpResult[], pick: (r: HttpResult) => Record<string, number> | undefined) =>
  rs.reduce<Record<string, number>>((acc, r) => {
    for (const [k, v] of Object.entries(pick(r) ?? {})) acc[k] = (acc[k] ?? 0) + v;
    return acc;
  }, {});
const slim = (results: HttpResult[]) => results.map(({ accepted: a, ...r }) => ({ ...r, accepted: a?.length ?? 0 }));

function rows(b: { bidders: number; watchers: number }, plain: HttpResult[], users: UsersResult[], tight: HttpResult[], cu: Awaited<ReturnType<typeof checkAuction>>, ct: Awaited<ReturnType<typeof checkAuction>>): Row[] {
  const baseRps = median(plain.map((r) => r.rps));
  const baseline = `${fmt(baseRps, 0)} answers/s without maxima, same server (p99 ${fmt(median(plain.map((r) => r.p99)))} ms)`;
  const rps = median(users.map((r) => r.rps));
  const tightRps = median(tight.map((r) => r.rps));
  const k = (key: 'bid' | 'max' | 'reread') => JSON.stringify(sum(users, (r) => (r as UsersResult).byKind[key]));
  return [
    {
      id: 'B1auto',
      what: `answers/s, ${b.bidders} bidders on one auction, half of them on a maximum set once and raised only when beaten (re-reading meanwhile), ${b.watchers} watchers`,
      subject: `${fmt(rps, 0)} answers/s (p99 ${fmt(median(users.map((r) => r.p99)))} ms; bids + maxima alone ${fmt(median(users.map((r) => r.bidRps)), 0)}/s)`,
      baseline,
      ratio: `${fmt(rps / baseRps, 2)}×`,
      goal: '≥ 0.8× (issue 14); 0 errors; ladder, price and bid_count correct',
      pass: rps / baseRps >= 0.8 && Object.values(cu.checks).every(Boolean),
      notes: [
        `answers: bids ${k('bid')}, maxima ${k('max')}, re-reads ${k('reread')}; maxima beaten at once ${users.reduce((s, r) => s + r.maxBeatenAtOnce, 0)}, beaten later ${users.reduce((s, r) => s + r.maxBeatenLater, 0)}`,
        cu.text,
        `without: answers ${JSON.stringify(sum(plain, (r) => r.statuses))}`,
        `per round with/without maxima answers/s: ${users.map((r, i) => `${fmt(r.rps, 0)}/${fmt(plain[i].rps, 0)}`).join(', ')}`,
      ],
      data: { checks: cu.checks, rows: cu.rows, autoRows: cu.autoRows, results: slim(users) },
    },
    {
      id: 'B1auto tight',
      what: `bid answers/s, ${b.bidders} bidders, half of them PUT a new maximum after every answer (tight loop, worst case, no user does this), ${b.watchers} watchers`,
      subject: `${fmt(tightRps, 0)} answers/s (p99 ${fmt(median(tight.map((r) => r.p99)))} ms)`,
      baseline,
      ratio: `${fmt(tightRps / baseRps, 2)}×`,
      goal: 'none (worst case, reported); 0 errors; ladder, price and bid_count correct',
      pass: Object.values(ct.checks).every(Boolean) ? null : false,
      notes: [
        `answers ${JSON.stringify(sum(tight, (r) => r.statuses))}, of them to PUT auto-bid ${JSON.stringify(sum(tight, (r) => r.maxStatuses))}; ${ct.text}`,
        `per round tight/without answers/s: ${tight.map((r, i) => `${fmt(r.rps, 0)}/${fmt(plain[i].rps, 0)}`).join(', ')}`,
      ],
      data: { checks: ct.checks, rows: ct.rows, autoRows: ct.autoRows, results: slim([...plain, ...tight]) },
    },
  ];
}

export async function b1auto(ctx: BenchCtx): Promise<Row[]> {
  const { bidders, watchers, seconds } = ctx.sizes.b1;
  const { dir, seed } = await seeded(ctx, 'b1a', 10, bidders);
  const server = await startServer({ dataDir: dir, source: ctx.source });
  const plainId = seed.hotAuctionId;
  // The seed writes the other auctions right after the hot one; each is open for at least an hour.
  const [usersId, tightId] = [seed.hotAuctionId + 1, seed.hotAuctionId + 2];
  const held = await Promise.all([plainId, usersId, tightId].map((id) => holdSockets(server.url, watchers, id)));
  try {
    const ids = await loginAll(server.url, seed.bidders.map((b) => b.email), BENCH_PASSWORD);
    const price = async (id: number) => (await getJson<{ current_price: number }>(`${server.url}/api/auction/${id}/`)).current_price;
    const [usersStart, tightStart] = [await price(usersId), await price(tightId)];
    const jobs: (HttpJob | UsersJob)[] = [];
    for (let r = 0; r < ctx.sizes.rounds; r++) {
      const common = { method: 'POST' as const, paths: ['/api/bids/'], concurrency: bidders, seconds, identities: ids, base: server.url };
      jobs.push({ ...common, label: 'plain', bid: { auctionId: plainId, startPrice: seed.hotStartPrice, priceFromBody: true } });
      jobs.push({ kind: 'users', label: 'users', base: server.url, auctionId: usersId, startPrice: usersStart, concurrency: bidders, seconds, identities: ids });
      jobs.push({ ...common, label: 'tight', bid: { auctionId: tightId, startPrice: tightStart, maxEvery: 2, priceFromBody: true } });
    }
    const results = await runLoad<HttpResult[]>('max-bidders.ts', jobs);
    const pick = (l: string) => results.filter((r) => r.label === l);
    const users = pick('users') as UsersResult[];
    const cu = await checkAuction(server.url, usersId, usersStart, users);
    const ct = await checkAuction(server.url, tightId, tightStart, pick('tight'));
    return rows({ bidders, watchers }, pick('plain'), users, pick('tight'), cu, ct);
  } finally {
    for (const h of held) await h.stop().catch(() => undefined);
    await server.stop();
  }
}
