/**
 * Soak load generator (the soak row, scripts/bench/lib/soak.ts; a separate process on the load core): an open
 * loop at a steady rate for `seconds`, bids (POST /api/bids/ on the given auctions as the logged-in identities,
 * amount = the highest price heard + 10, so most are accepted and some refused in a race) and list reads (the
 * public list, pages and sorts in turn). A request is sent on its tick whether or not the previous ones have
 * answered, so a server that slows down meets more requests in flight, not fewer. Prints one JSON line.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { Identity } from './http-load';

export interface SoakConfig {
  base: string;
  identities: Identity[];
  auctionIds: number[];
  startPrice: number;
  bidsPerSecond: number;
  readsPerSecond: number;
  seconds: number;
  readPaths: string[];
  timeoutMs?: number;
}

export interface SoakKind {
  sent: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  p50: number;
  p99: number;
  max: number;
}

export interface SoakResult {
  seconds: number;
  bids: SoakKind;
  reads: SoakKind;
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function tally() {
  const lat: number[] = [];
  const k = { sent: 0, statuses: {} as Record<string, number>, errors: 0, timeouts: 0 };
  return {
    k,
    lat,
    summary(): SoakKind {
      const sorted = [...lat].sort((a, b) => a - b);
      return { ...k, p50: pct(sorted, 50), p99: pct(sorted, 99), max: sorted.length ? sorted[sorted.length - 1] : NaN };
    },
  };
}

export async function soak(cfg: SoakConfig): Promise<SoakResult> {
  const base = new URL(cfg.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const timeoutMs = cfg.timeoutMs ?? 10_000;
  const known = new Map<number, number>(cfg.auctionIds.map((id) => [id, cfg.startPrice]));
  const bids = tally();
  const reads = tally();
  const inFlight = new Set<Promise<void>>();
  let n = 0;

  const send = (t: ReturnType<typeof tally>, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body: string | undefined, onBody?: (status: number, text: string) => void) => {
    t.k.sent += 1;
    const t0 = performance.now();
    const p = new Promise<void>((resolve) => {
      let done = false;
      const finish = (status: string | null) => {
        if (done) return;
        done = true;
        if (status === null) t.k.errors += 1;
        else {
          t.k.statuses[status] = (t.k.statuses[status] ?? 0) + 1;
          t.lat.push(performance.now() - t0);
        }
        resolve();
      };
      const req = http.request({ host: base.hostname, port: base.port, method, path, headers: { host: base.host, ...headers }, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          onBody?.(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'));
          finish(String(res.statusCode));
        });
        res.on('error', () => finish(null));
      });
      req.setTimeout(timeoutMs, () => {
        if (!done) t.k.timeouts += 1;
        done = true;
        req.destroy();
        resolve();
      });
      req.on('error', () => finish(null));
      req.end(body);
    });
    inFlight.add(p);
    void p.then(() => inFlight.delete(p));
  };

  const bid = () => {
    const i = n++;
    const auction = cfg.auctionIds[i % cfg.auctionIds.length];
    const id = cfg.identities[i % cfg.identities.length];
    const body = JSON.stringify({ auction_item_id: auction, amount: (known.get(auction) ?? cfg.startPrice) + 10 });
    const headers = { cookie: id.cookie, 'x-csrftoken': id.csrf, origin: base.origin, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    send(bids, 'POST', '/api/bids/', headers, body, (_status, text) => {
      try {
        const price = (JSON.parse(text) as { current_price?: unknown }).current_price;
        if (typeof price === 'number') known.set(auction, Math.max(known.get(auction) ?? 0, price));
      } catch {
        // not JSON: counted by its status
      }
    });
  };
  let r = 0;
  const read = () => send(reads, 'GET', cfg.readPaths[r++ % cfg.readPaths.length], {}, undefined);

  const t0 = performance.now();
  const timers = [setInterval(bid, 1000 / cfg.bidsPerSecond), setInterval(read, 1000 / cfg.readsPerSecond)];
  await new Promise((resolve) => setTimeout(resolve, cfg.seconds * 1000));
  for (const t of timers) clearInterval(t);
  await Promise.all([...inFlight]);
  agent.destroy();
  return { seconds: (performance.now() - t0) / 1000, bids: bids.summary(), reads: reads.summary() };
}

if (process.argv[2] && /soak\.ts$/.test(process.argv[1] ?? '')) {
  const arg = process.argv[2];
  const cfg = JSON.parse(arg.startsWith('@') ? fs.readFileSync(arg.slice(1), 'utf8') : arg) as SoakConfig;
  soak(cfg)
    .then((res) => process.stdout.write(`${JSON.stringify(res)}\n`))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
