/**
 * B1auto (issue 14, "Tests and figures"): B1's load with half the bidders on maxima. On one server, two open
 * auctions, per round interleaved: B1's bidders on the first (every connection POSTs a bid at the known price
 * + 10), then the same load on the second where every other connection PUTs a maximum
 * (/api/auctions/{id}/auto-bid/, the known price + 10 … + 300) instead, so the server answers manual bids
 * with automatic rows and resolves maxima against each other. Both loads learn the price from every
 * answer's `current_price`. Figure: bid answers (bids and maxima) per second; goal ≥ 0.8× the plain load.
 * Checks on the auction with maxima: the history is a ladder (amounts unique, each above the previous,
 * manual rows by ≥ 10), the detail's price and count are its last row and its length, no errors.
 */
import type { HttpJob, HttpResult } from '../loadgen/http-load';
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

export async function b1auto(ctx: BenchCtx): Promise<Row[]> {
  const { bidders, watchers, seconds } = ctx.sizes.b1;
  const { dir, seed } = await seeded(ctx, 'b1a', 10, bidders);
  const server = await startServer({ dataDir: dir, source: ctx.source });
  const plainId = seed.hotAuctionId;
  // The seed writes the other auctions right after the hot one; each is open for at least an hour.
  const autoId = seed.hotAuctionId + 1;
  const held = [await holdSockets(server.url, watchers, plainId), await holdSockets(server.url, watchers, autoId)];
  try {
    const ids = await loginAll(server.url, seed.bidders.map((b) => b.email), BENCH_PASSWORD);
    const autoStart = (await getJson<{ current_price: number }>(`${server.url}/api/auction/${autoId}/`)).current_price;
    const jobs: HttpJob[] = [];
    for (let r = 0; r < ctx.sizes.rounds; r++) {
      const common = { method: 'POST' as const, paths: ['/api/bids/'], concurrency: bidders, seconds, identities: ids, base: server.url };
      jobs.push({ ...common, label: 'plain', bid: { auctionId: plainId, startPrice: seed.hotStartPrice, priceFromBody: true } });
      jobs.push({ ...common, label: 'auto', bid: { auctionId: autoId, startPrice: autoStart, maxEvery: 2, priceFromBody: true } });
    }
    const results = await runLoad<HttpResult[]>('http-load.ts', jobs);
    const plain = results.filter((r) => r.label === 'plain');
    const auto = results.filter((r) => r.label === 'auto');
    const detail = await getJson<{ current_price: number; bid_count: number }>(`${server.url}/api/auction/${autoId}/`);
    const history = await getJson<HistoryRow[]>(`${server.url}/api/bids/${autoId}/`);
    const problems = ladderProblems(history, autoStart);
    const checks = {
      ladder: problems.length === 0,
      detailIsLastRow: detail.current_price === (history.at(-1)?.amount ?? autoStart) && detail.bid_count === history.length,
      someAutomaticRows: history.some((h) => h.auto),
      noErrors: bad(results) === 0,
    };
    const rps = median(auto.map((r) => r.rps));
    const baseRps = median(plain.map((r) => r.rps));
    const ratio = rps / baseRps;
    const sum = (rs: HttpResult[], pick: (r: HttpResult) => Record<string, number> | undefined) =>
      rs.reduce<Record<string, number>>((acc, r) => {
        for (const [k, v] of Object.entries(pick(r) ?? {})) acc[k] = (acc[k] ?? 0) + v;
        return acc;
      }, {});
    return [
      {
        id: 'B1auto',
        what: `bid answers/s, ${bidders} bidders on one auction, half of them on maxima (PUT auto-bid), ${watchers} watchers`,
        subject: `${fmt(rps, 0)} answers/s (p99 ${fmt(median(auto.map((r) => r.p99)))} ms)`,
        baseline: `${fmt(baseRps, 0)} answers/s without maxima, same server (p99 ${fmt(median(plain.map((r) => r.p99)))} ms)`,
        ratio: `${fmt(ratio, 2)}×`,
        goal: '≥ 0.8× (issue 14); 0 errors; ladder, price and bid_count correct',
        pass: ratio >= 0.8 && Object.values(checks).every(Boolean),
        notes: [
          `with maxima: answers ${JSON.stringify(sum(auto, (r) => r.statuses))}, of them to PUT auto-bid ${JSON.stringify(sum(auto, (r) => r.maxStatuses))}; rows ${history.length} (${history.filter((h) => h.auto).length} automatic), price ${detail.current_price}`,
          `without: answers ${JSON.stringify(sum(plain, (r) => r.statuses))}`,
          `checks: ${Object.entries(checks)
            .map(([k, v]) => `${k}=${v ? 'ok' : 'FAIL'}`)
            .join(', ')}${problems.length ? `; ${problems.slice(0, 3).join('; ')}` : ''}`,
          `per round with/without maxima answers/s: ${auto.map((r, i) => `${fmt(r.rps, 0)}/${fmt(plain[i].rps, 0)}`).join(', ')}`,
        ],
        data: { checks, rows: history.length, autoRows: history.filter((h) => h.auto).length, results: results.map(({ accepted: a, ...r }) => ({ ...r, accepted: a?.length ?? 0 })) },
      },
    ];
  } finally {
    for (const h of held) await h.stop().catch(() => undefined);
    await server.stop();
  }
}
