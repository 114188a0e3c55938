/**
 * HTTP load generator (a separate process, pinned to the load core): closed loop, `concurrency` requests
 * in flight over keep-alive connections, for `seconds`. Runs its jobs in the order given, so a caller
 * interleaves baseline and subject (A B A B …) inside one process. Prints one JSON line with the results.
 *
 * Job kinds: a plain request (GET/POST one of `paths`, round-robin), or `bid`: POST /api/bids/ as one of
 * the logged-in `identities` (cookie + CSRF token) with amount = highest accepted so far + 10, so that
 * concurrent bidders race and most of them are (correctly) refused.
 */
import fs from 'node:fs';
import http from 'node:http';

export interface Identity {
  cookie: string;
  csrf: string;
}

export interface HttpJob {
  label: string;
  base: string;
  /** Several nodes: connection k sends to bases[k % n] (base is then only a label). */
  bases?: string[];
  /** Origin header of writes (default: the target's own origin); nodes of one marketplace share PUBLIC_URL. */
  origin?: string;
  method: 'GET' | 'POST';
  paths: string[];
  concurrency: number;
  seconds: number;
  warmupSeconds?: number;
  identities?: Identity[];
  /**
   * Bid mode: POST {auction_item_id, amount} with racing amounts. With `maxEvery: k`, every k-th connection
   * is a bidder on a maximum instead (issue 14, row "B1auto tight", the worst case without a goal): it PUTs
   * /api/auctions/{id}/auto-bid/ {max_amount} at the known price + 10 … + 300 after every answer. Row B1auto's
   * maxima bidders, who raise only when beaten, are in max-bidders.ts. With `priceFromBody`, every answer's `current_price` (201, 200 and 400
   * bodies carry it) moves the known price too: maxima move the price without any manual bid being accepted.
   */
  bid?: { auctionId: number; startPrice: number; maxEvery?: number; priceFromBody?: boolean };
  timeoutMs?: number;
}

export interface HttpResult {
  label: string;
  requests: number;
  rps: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Bid mode: accepted amounts in the order the 201s came back. */
  accepted?: number[];
  /** Bid mode with `maxEvery`: the answers to PUT auto-bid (they are in `statuses` too). */
  maxStatuses?: Record<string, number>;
  /** Bid mode: the state after the job (highest accepted). */
  known?: number;
}

function pct(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export async function runJob(job: HttpJob, state: { known: number }): Promise<HttpResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency, maxFreeSockets: job.concurrency });
  const targets = (job.bases ?? [job.base]).map((b) => new URL(b));
  const timeoutMs = job.timeoutMs ?? 10_000;
  const statuses: Record<string, number> = {};
  const maxStatuses: Record<string, number> = {};
  const accepted: number[] = [];
  let errors = 0;
  let timeouts = 0;
  let lat: number[] = [];
  let measuring = false;
  let stop = false;
  let count = 0;
  let seq = 0;

  function once(worker: number): Promise<void> {
    return new Promise((resolve) => {
      const n = seq++;
      const base = targets[worker % targets.length];
      const headers: Record<string, string> = { host: base.host };
      let body: string | undefined;
      let amount = 0;
      const onMax = !!job.bid?.maxEvery && worker % job.bid.maxEvery === 0;
      const id = job.identities?.[worker % job.identities.length];
      if (id) {
        headers.cookie = id.cookie;
        headers['x-csrftoken'] = id.csrf;
      }
      if (job.method === 'POST') {
        headers.origin = job.origin ?? base.origin;
        if (job.bid && onMax) {
          amount = Math.max(state.known, job.bid.startPrice) + 10 + 10 * (n % 30);
          body = JSON.stringify({ max_amount: amount });
        } else if (job.bid) {
          amount = Math.max(state.known, job.bid.startPrice) + 10;
          body = JSON.stringify({ auction_item_id: job.bid.auctionId, amount });
        } else body = '{}';
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      const path = onMax ? `/api/auctions/${job.bid!.auctionId}/auto-bid/` : job.paths[n % job.paths.length];
      const t0 = performance.now();
      let done = false;
      const finish = (status: string | null) => {
        if (done) return;
        done = true;
        if (measuring) {
          if (status === null) errors++;
          else {
            statuses[status] = (statuses[status] ?? 0) + 1;
            if (onMax) maxStatuses[status] = (maxStatuses[status] ?? 0) + 1;
            lat.push(performance.now() - t0);
            count++;
          }
        }
        resolve();
      };
      const req = http.request({ host: base.hostname, port: base.port, method: onMax ? 'PUT' : job.method, path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (job.bid && res.statusCode === 201) {
            accepted.push(amount);
            state.known = Math.max(state.known, amount);
          }
          if (job.bid?.priceFromBody) state.known = Math.max(state.known, priceOf(chunks));
          finish(String(res.statusCode));
        });
        res.on('error', () => finish(null));
      });
      req.setTimeout(timeoutMs, () => {
        if (measuring) timeouts++;
        req.destroy();
        done = true;
        resolve();
      });
      req.on('error', () => finish(null));
      req.end(body);
    });
  }

  async function worker(i: number) {
    while (!stop) await once(i);
  }

  const workers = Array.from({ length: job.concurrency }, (_, i) => worker(i));
  const warm = job.warmupSeconds ?? Math.min(0.5, job.seconds / 4);
  await new Promise((r) => setTimeout(r, warm * 1000));
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
  return {
    label: job.label,
    requests: count,
    rps: count / elapsed,
    statuses,
    errors,
    timeouts,
    p50: pct(sorted, 50),
    p95: pct(sorted, 95),
    p99: pct(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
    ...(job.bid ? { accepted, known: state.known } : {}),
    ...(job.bid?.maxEvery ? { maxStatuses } : {}),
  };
}

async function main() {
  const jobs = readConfig(process.argv[2]) as HttpJob[];
  const states = new Map<number, { known: number }>();
  const results: HttpResult[] = [];
  for (const job of jobs) {
    const key = job.bid?.auctionId ?? -1;
    if (!states.has(key)) states.set(key, { known: 0 });
    results.push(await runJob(job, states.get(key)!));
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

if (process.argv[2] && /http-load\.ts$/.test(process.argv[1] ?? '')) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

/** `current_price` of a JSON answer, or 0. */
function priceOf(chunks: Buffer[]): number {
  try {
    const price = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { current_price?: unknown }).current_price;
    return typeof price === 'number' ? price : 0;
  } catch {
    return 0;
  }
}

/** The config: `@file` (what runLoad passes) or inline JSON. */
function readConfig(arg: string) {
  return JSON.parse(arg.startsWith('@') ? fs.readFileSync(arg.slice(1), 'utf8') : arg);
}
