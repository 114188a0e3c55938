/**
 * B1 with bidders that only know what the server tells them (scripts/bench/loadgen/bidders.ts): after a
 * refused bid they re-read the auction (GET /api/auction/{id}/) before bidding again, or take the price
 * from the 400 body when it states one (issue 11, point 3). Same sizes as B1 (bidders, watchers, seconds,
 * rounds); on one server, per round interleaved: B1's bidders (shared knowledge, the B1 row's load), the
 * re-reading bidders, the body-reading bidders.
 */
import type { BidderJob, BidderMode, BidderResult } from '../loadgen/bidders';
import { BENCH_PASSWORD } from '../seed-100k';
import { holdSockets, seeded, type BenchCtx } from './benchmarks';
import { getJson, loginAll } from './client';
import type { Row } from './options';
import { runLoad, startServer } from './proc';
import { fmt, median } from './stats';

const LABEL: Record<Exclude<BidderMode, 'shared'>, string> = {
  reread: 're-read after each refusal',
  body: 'price from the 400 body, else re-read',
};

export async function b1reread(ctx: BenchCtx): Promise<Row[]> {
  const { bidders, watchers, seconds } = ctx.sizes.b1;
  const { dir, seed } = await seeded(ctx, 'b1r', 10, bidders);
  const server = await startServer({ dataDir: dir, source: ctx.source });
  const sockets = await holdSockets(server.url, watchers, seed.hotAuctionId);
  let results: BidderResult[];
  try {
    const ids = await loginAll(server.url, seed.bidders.map((b) => b.email), BENCH_PASSWORD);
    const jobs: BidderJob[] = [];
    for (let r = 0; r < ctx.sizes.rounds; r++) {
      for (const mode of ['shared', 'reread', 'body'] as const) {
        jobs.push({ label: mode, mode, base: server.url, auctionId: seed.hotAuctionId, startPrice: seed.hotStartPrice, concurrency: bidders, seconds, identities: ids });
      }
    }
    results = await runLoad<BidderResult[]>('bidders.ts', jobs);
    const detail = await getJson<{ current_price: number; bid_count: number }>(`${server.url}/api/auction/${seed.hotAuctionId}/`);
    const history = await getJson<{ amount: number }[]>(`${server.url}/api/bids/${seed.hotAuctionId}/`);
    const accepted = results.flatMap((r) => r.accepted);
    const maxAccepted = accepted.length ? Math.max(...accepted) : seed.hotStartPrice;
    const checks = {
      priceIsMaxAccepted: detail.current_price === maxAccepted,
      bidCountIsAccepted: detail.bid_count === accepted.length && history.length === accepted.length,
      stepsAtLeast10: history.every((b, i) => i === 0 || b.amount >= history[i - 1].amount + 10),
    };
    const checksOk = Object.values(checks).every(Boolean);
    const pick = (mode: BidderMode) => results.filter((r) => r.mode === mode);
    const ref = pick('shared');
    const refRps = median(ref.map((r) => r.bidsPerSecond));
    const refNote = `same-server reference (B1's bidders, shared knowledge): ${fmt(refRps, 0)} bid answers/s, p95 ${fmt(median(ref.map((r) => r.bidP95)))} ms, accepted ${ref.reduce((s, r) => s + (r.statuses['201'] ?? 0), 0)}`;
    return (['reread', 'body'] as const).map((mode) => {
      const rs = pick(mode);
      const bps = median(rs.map((r) => r.bidsPerSecond));
      const acc = rs.reduce((s, r) => s + (r.statuses['201'] ?? 0), 0);
      const refused = rs.reduce((s, r) => s + (r.statuses['400'] ?? 0), 0);
      const bad = rs.reduce(
        (s, r) =>
          s +
          r.errors +
          r.timeouts +
          Object.entries(r.statuses).filter(([k]) => k !== '201' && k !== '400').reduce((a, [, v]) => a + v, 0) +
          Object.entries(r.rereadStatuses).filter(([k]) => k !== '200').reduce((a, [, v]) => a + v, 0),
        0,
      );
      const fromBody = rs.reduce((s, r) => s + r.priceFromBody, 0);
      const rereads = rs.reduce((s, r) => s + Object.values(r.rereadStatuses).reduce((a, v) => a + v, 0), 0);
      const perSec = (n: number) => fmt(n / (rs.length * seconds), 0);
      return {
        id: mode === 'reread' ? 'B1r' : 'B1r body',
        what: `${LABEL[mode]}: ${bidders} bidders on one auction, ${watchers} watchers`,
        subject: `${fmt(bps, 0)} bid answers/s (p95 ${fmt(median(rs.map((r) => r.bidP95)))} ms), ${perSec(acc)} accepted/s, ${fmt(median(rs.map((r) => r.requestsPerSecond)), 0)} req/s with re-reads`,
        baseline: `${fmt(refRps, 0)} bid answers/s, B1's bidders on the same server`,
        ratio: `${fmt(bps / refRps, 2)}×`,
        goal: 'report (issue 11, point 5); 0 errors; price/bid_count/steps correct',
        pass: bad === 0 && checksOk ? null : false,
        notes: [
          `accepted ${acc}, refused ${refused}, re-reads ${rereads} (p95 ${fmt(median(rs.map((r) => r.rereadP95)))} ms), price from the 400 body ${fromBody}, refusal → next bid p95 ${fmt(median(rs.map((r) => r.retryP95)))} ms, errors/other ${bad}`,
          `per round bid answers/s: ${rs.map((r) => fmt(r.bidsPerSecond, 0)).join(', ')}`,
          ...(mode === 'reread'
            ? [
                refNote,
                `checks (the three kinds of bidders on one auction): ${Object.entries(checks)
                  .map(([k, v]) => `${k}=${v ? 'ok' : 'FAIL'}`)
                  .join(', ')}`,
              ]
            : []),
        ],
        data: { checks, results: rs.map(({ accepted: a, ...r }) => ({ ...r, accepted: a.length })), reference: ref.map(({ accepted: a, ...r }) => ({ ...r, accepted: a.length })) },
      };
    });
  } finally {
    await sockets.stop().catch(() => undefined);
    await server.stop();
  }
}
