/**
 * Bidders as real clients (a separate process, pinned to the load core): `concurrency` logged-in bidders on
 * one auction, closed loop, for `seconds`. Unlike http-load.ts's bid mode, where every bidder bids the highest
 * amount any of them got accepted (knowledge a real client does not have), each bidder here only knows what
 * the server told it:
 *
 * - `shared`: http-load.ts's B1 bidders (the highest accepted amount across all bidders + 10), for reference;
 * - `reread`: after a refused bid the bidder GETs the auction (/api/auction/{id}/) and bids its
 *   current_price + 10: what a client does when the 400 body does not say the price;
 * - `body`: the bidder takes `current_price` (or `min_amount`) from the 400 body when it is there and
 *   re-reads only when it is not.
 *
 * Prints one JSON line: per job the bid answers (POST) per second and their latency, the re-reads and their
 * latency, and the accepted amounts.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { Identity } from './http-load';

export type BidderMode = 'shared' | 'reread' | 'body';

export interface BidderJob {
  label: string;
  mode: BidderMode;
  base: string;
  auctionId: number;
  /** The auction's price when the job starts (every bidder's first view of it). */
  startPrice: number;
  concurrency: number;
  seconds: number;
  identities: Identity[];
  warmupSeconds?: number;
  timeoutMs?: number;
}

export interface BidderResult {
  label: string;
  mode: BidderMode;
  /** Bid answers (POST /api/bids/) per second. */
  bidsPerSecond: number;
  /** Bid attempts that took a refusal and a re-read: full "try again" rounds per second. */
  rereadsPerSecond: number;
  /** All HTTP answers (bids + re-reads) per second. */
  requestsPerSecond: number;
  statuses: Record<string, number>;
  rereadStatuses: Record<string, number>;
  /** Refusals whose body carried the price (no re-read needed). */
  priceFromBody: number;
  errors: number;
  timeouts: number;
  bidP50: number;
  bidP95: number;
  bidP99: number;
  rereadP95: number;
  /** Refusal → next bid sent (the refused answer plus, when needed, the re-read), p95 ms. */
  retryP95: number;
  accepted: number[];
}

function pct(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface Answer {
  status: number | null;
  body: string;
  ms: number;
}

export async function runBidders(job: BidderJob, shared: { known: number }): Promise<BidderResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency, maxFreeSockets: job.concurrency });
  const base = new URL(job.base);
  const timeoutMs = job.timeoutMs ?? 10_000;
  const statuses: Record<string, number> = {};
  const rereadStatuses: Record<string, number> = {};
  const accepted: number[] = [];
  const bidLat: number[] = [];
  const rereadLat: number[] = [];
  const retryLat: number[] = [];
  let priceFromBody = 0;
  let errors = 0;
  let timeouts = 0;
  let measuring = false;
  let stop = false;

  function request(id: Identity, method: 'GET' | 'POST', path: string, body?: string): Promise<Answer> {
    return new Promise((resolve) => {
      const headers: Record<string, string> = { host: base.host, cookie: id.cookie };
      if (method === 'POST') {
        headers.origin = base.origin;
        headers['x-csrftoken'] = id.csrf;
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body ?? ''));
      }
      const t0 = performance.now();
      let done = false;
      const finish = (status: number | null, text: string) => {
        if (done) return;
        done = true;
        resolve({ status, body: text, ms: performance.now() - t0 });
      };
      const req = http.request({ host: base.hostname, port: base.port, method, path, headers, agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => finish(res.statusCode ?? 0, text));
        res.on('error', () => finish(null, ''));
      });
      req.setTimeout(timeoutMs, () => {
        if (measuring) timeouts++;
        req.destroy();
        finish(null, '');
      });
      req.on('error', () => finish(null, ''));
      req.end(body);
    });
  }

  /** The price a 400 body states, if it states one. */
  function priceInBody(text: string): number | null {
    try {
      const b = JSON.parse(text) as { current_price?: unknown; min_amount?: unknown };
      if (typeof b.current_price === 'number') return b.current_price;
      if (typeof b.min_amount === 'number') return b.min_amount - 10;
    } catch {
      // not JSON
    }
    return null;
  }

  async function bidder(i: number) {
    const id = job.identities[i % job.identities.length];
    let mine = job.startPrice;
    while (!stop) {
      const amount = (job.mode === 'shared' ? Math.max(shared.known, job.startPrice) : mine) + 10;
      const bid = await request(id, 'POST', '/api/bids/', JSON.stringify({ auction_item_id: job.auctionId, amount }));
      if (bid.status === null) {
        if (measuring) errors++;
        continue;
      }
      if (measuring) {
        statuses[bid.status] = (statuses[bid.status] ?? 0) + 1;
        bidLat.push(bid.ms);
      }
      if (bid.status === 201) {
        accepted.push(amount);
        shared.known = Math.max(shared.known, amount);
        mine = amount;
        continue;
      }
      if (job.mode === 'shared') continue;
      const stated = job.mode === 'body' ? priceInBody(bid.body) : null;
      if (stated !== null) {
        if (measuring) {
          priceFromBody++;
          retryLat.push(bid.ms);
        }
        mine = Math.max(mine, stated);
        continue;
      }
      const read = await request(id, 'GET', `/api/auction/${job.auctionId}/`);
      if (measuring) {
        if (read.status === null) errors++;
        else {
          rereadStatuses[read.status] = (rereadStatuses[read.status] ?? 0) + 1;
          rereadLat.push(read.ms);
          retryLat.push(bid.ms + read.ms);
        }
      }
      if (read.status === 200) {
        try {
          mine = Math.max(mine, (JSON.parse(read.body) as { current_price: number }).current_price);
        } catch {
          // keep the old view
        }
      }
    }
  }

  const workers = Array.from({ length: job.concurrency }, (_, i) => bidder(i));
  await new Promise((r) => setTimeout(r, (job.warmupSeconds ?? Math.min(0.5, job.seconds / 4)) * 1000));
  bidLat.length = 0;
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, job.seconds * 1000));
  measuring = false;
  const elapsed = (performance.now() - t0) / 1000;
  stop = true;
  await Promise.all(workers);
  agent.destroy();
  const bids = bidLat.length;
  const rereads = rereadLat.length;
  return {
    label: job.label,
    mode: job.mode,
    bidsPerSecond: bids / elapsed,
    rereadsPerSecond: rereads / elapsed,
    requestsPerSecond: (bids + rereads) / elapsed,
    statuses,
    rereadStatuses,
    priceFromBody,
    errors,
    timeouts,
    bidP50: pct(bidLat, 50),
    bidP95: pct(bidLat, 95),
    bidP99: pct(bidLat, 99),
    rereadP95: pct(rereadLat, 95),
    retryP95: pct(retryLat, 95),
    // Every accepted amount (warm-up included): the after-run check compares them with the auction.
    accepted,
  };
}

async function main() {
  const arg = process.argv[2];
  const jobs = JSON.parse(arg.startsWith('@') ? fs.readFileSync(arg.slice(1), 'utf8') : arg) as BidderJob[];
  const shared = { known: 0 };
  const results: BidderResult[] = [];
  for (const job of jobs) {
    // Each job starts from the price the previous one left (the jobs share one auction).
    const res = await runBidders({ ...job, startPrice: Math.max(job.startPrice, shared.known) }, shared);
    results.push(res);
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

if (process.argv[2]) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
