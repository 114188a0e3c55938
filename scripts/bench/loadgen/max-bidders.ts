/**
 * B1auto's load as users bid (issue 14): a separate process, pinned to the load core. Runs HttpJobs (handed to
 * http-load.ts's runJob, unchanged) and `users` jobs in the order given, so baseline and subjects interleave
 * per round inside one process. Prints one JSON line with the results.
 *
 * A `users` job: `concurrency` logged-in connections on one auction, closed loop (one request in flight per
 * connection, the next sent as soon as the answer is in, as B1's bidders do), for `seconds`.
 *
 * - Odd connections are B1's manual bidders, exactly as in http-load.ts's bid mode with `priceFromBody`: POST
 *   /api/bids/ at the known price + 10, where the known price is the highest `current_price` of any answer on
 *   this auction (shared by the manual bidders, as in B1).
 * - Even connections are bidders on a maximum. Each knows only what its own answers told it:
 *   1. It PUTs /api/auctions/{id}/auto-bid/ once, with max_amount = the price it last saw + a random 100…300.
 *   2. If the answer says `leading: false` (another maximum is at least as high), or is a 400 (its maximum was
 *      below the minimum by then), it was beaten: it goes back to 1 with the answer's `current_price`.
 *   3. Otherwise it holds its maximum and re-reads the auction (GET /api/auction/{id}/), as B1r's bidders
 *      re-read after a refusal, over and over, until a re-read shows `current_price` above its maximum (a manual
 *      bid or another maximum passed it); then it goes back to 1 with that price.
 *   It never idles: every connection always has a request in flight, so the server carries the same 50 clients
 *   as in the baseline. A tie at exactly its maximum (another maximum set earlier at the same amount leads)
 *   shows up in step 2's answer; after that only a price above its maximum counts as beaten.
 *
 * Reported per `users` job: all answers (bids, maxima, re-reads) per second, and separately the bid answers
 * (POST bids + PUT maxima) per second, the re-reads, and the maxima set.
 */
import fs from 'node:fs';
import http from 'node:http';
import { runJob, type HttpJob, type HttpResult, type Identity } from './http-load';

export interface UsersJob {
  kind: 'users';
  label: string;
  base: string;
  auctionId: number;
  startPrice: number;
  concurrency: number;
  seconds: number;
  identities: Identity[];
  warmupSeconds?: number;
  timeoutMs?: number;
}

export interface UsersResult extends HttpResult {
  /** POST bids + PUT maxima answered per second (re-reads left out). */
  bidRps: number;
  /** Answers per kind of request: bid (POST), max (PUT), reread (GET). */
  byKind: Record<'bid' | 'max' | 'reread', Record<string, number>>;
  /** PUTs answered `leading: false` (beaten at once). */
  maxBeatenAtOnce: number;
  /** Re-reads that showed the price above the bidder's maximum. */
  maxBeatenLater: number;
}

function pct(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

type Kind = 'bid' | 'max' | 'reread';

export async function runUsers(job: UsersJob, state: { known: number }): Promise<UsersResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency, maxFreeSockets: job.concurrency });
  const base = new URL(job.base);
  const byKind: UsersResult['byKind'] = { bid: {}, max: {}, reread: {} };
  const statuses: Record<string, number> = {};
  const accepted: number[] = [];
  let lat: number[] = [];
  let errors = 0;
  let timeouts = 0;
  let measuring = false;
  let stop = false;
  let maxBeatenAtOnce = 0;
  let maxBeatenLater = 0;

  function send(id: Identity, kind: Kind, body?: unknown): Promise<{ status: number | null; json: Record<string, unknown> }> {
    const method = kind === 'bid' ? 'POST' : kind === 'max' ? 'PUT' : 'GET';
    const path = kind === 'bid' ? '/api/bids/' : kind === 'max' ? `/api/auctions/${job.auctionId}/auto-bid/` : `/api/auction/${job.auctionId}/`;
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { host: base.host, cookie: id.cookie, 'x-csrftoken': id.csrf };
    if (text !== undefined) Object.assign(headers, { origin: base.origin, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    return new Promise((resolve) => {
      const t0 = performance.now();
      let done = false;
      const finish = (status: number | null, raw: string) => {
        if (done) return;
        done = true;
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          // not JSON
        }
        if (typeof json.current_price === 'number') state.known = Math.max(state.known, json.current_price);
        if (measuring) {
          if (status === null) errors++;
          else {
            statuses[status] = (statuses[status] ?? 0) + 1;
            byKind[kind][status] = (byKind[kind][status] ?? 0) + 1;
            lat.push(performance.now() - t0);
          }
        }
        resolve({ status, json });
      };
      const req = http.request({ host: base.hostname, port: base.port, method, path, headers, agent }, (res) => {
        let raw = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (raw += c));
        res.on('end', () => finish(res.statusCode ?? 0, raw));
        res.on('error', () => finish(null, ''));
      });
      req.setTimeout(job.timeoutMs ?? 10_000, () => {
        if (measuring) timeouts++;
        req.destroy();
        finish(null, '');
      });
      req.on('error', () => finish(null, ''));
      req.end(text);
    });
  }

  async function manual(id: Identity) {
    while (!stop) {
      const amount = Math.max(state.known, job.startPrice) + 10;
      const a = await send(id, 'bid', { auction_item_id: job.auctionId, amount });
      if (a.status === 201) {
        accepted.push(amount);
        state.known = Math.max(state.known, amount);
      }
    }
  }

  async function onMaximum(id: Identity) {
    let seen = job.startPrice;
    let max: number | null = null;
    while (!stop) {
      if (max === null) {
        const wanted = seen + 100 + Math.floor(Math.random() * 201);
        const a = await send(id, 'max', { max_amount: wanted });
        if (typeof a.json.current_price === 'number') seen = Math.max(seen, a.json.current_price);
        if (a.status === 200 && a.json.leading === true) max = wanted;
        else if (a.status === 200 && measuring) maxBeatenAtOnce++;
        continue;
      }
      const r = await send(id, 'reread');
      if (typeof r.json.current_price === 'number') seen = Math.max(seen, r.json.current_price);
      if (seen > max) {
        max = null;
        if (measuring) maxBeatenLater++;
      }
    }
  }

  const workers = Array.from({ length: job.concurrency }, (_, i) => {
    const id = job.identities[i % job.identities.length];
    return i % 2 === 0 ? onMaximum(id) : manual(id);
  });
  await new Promise((r) => setTimeout(r, (job.warmupSeconds ?? Math.min(0.5, job.seconds / 4)) * 1000));
  lat = [];
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, job.seconds * 1000));
  measuring = false;
  const elapsed = (performance.now() - t0) / 1000;
  stop = true;
  await Promise.all(workers);
  agent.destroy();
  const sorted = Float64Array.from(lat).sort();
  const n = (s: Record<string, number>) => Object.values(s).reduce((a, b) => a + b, 0);
  return {
    label: job.label,
    requests: lat.length,
    rps: lat.length / elapsed,
    bidRps: (n(byKind.bid) + n(byKind.max)) / elapsed,
    statuses,
    byKind,
    maxBeatenAtOnce,
    maxBeatenLater,
    errors,
    timeouts,
    p50: pct(sorted, 50),
    p95: pct(sorted, 95),
    p99: pct(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
    accepted,
    known: state.known,
  };
}

async function main() {
  const arg = process.argv[2];
  const jobs = JSON.parse(arg.startsWith('@') ? fs.readFileSync(arg.slice(1), 'utf8') : arg) as (HttpJob | UsersJob)[];
  const states = new Map<number, { known: number }>();
  const results: (HttpResult | UsersResult)[] = [];
  for (const job of jobs) {
    const key = 'kind' in job ? job.auctionId : (job.bid?.auctionId ?? -1);
    if (!states.has(key)) states.set(key, { known: 0 });
    results.push('kind' in job ? await runUsers(job, states.get(key)!) : await runJob(job, states.get(key)!));
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

if (process.argv[2]) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
