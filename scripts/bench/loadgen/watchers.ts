/**
 * Socket load generator (a separate process on the load core).
 * - mode `latency` (B2, B7): `watchers` socket.io clients join one auction; bids are sent over HTTP at
 *   `rate` per second for `seconds` (open loop, amounts +10 each); for every watcher's `bid:placed` the
 *   time from sending that bid's request to its arrival is one sample. Optionally one extra watcher
 *   stops reading (its TCP socket is paused) to play the slow reader of B7.
 * - mode `idle` (B6): `watchers` sockets connect and stay idle; prints READY, exits when stdin closes.
 * Prints one JSON line with the results.
 */
import fs from 'node:fs';
import http from 'node:http';
import WebSocket from 'ws';
import type { Identity } from './http-load';

export interface WatchConfig {
  mode: 'latency' | 'idle';
  base: string;
  /** Several nodes: watcher i connects to bases[i % n] and bid i is sent to bases[i % n]. */
  bases?: string[];
  /** Origin header of the bids (default: the target's own origin). */
  origin?: string;
  auctionId: number;
  watchers: number;
  slowReader?: boolean;
  rate?: number;
  seconds?: number;
  /** '/api/bids/' (Aukcije, body {auction_item_id, amount}, identities needed) or '/bid' (bare-io). */
  bidPath?: string;
  identities?: Identity[];
  startPrice?: number;
  join?: boolean;
}

export interface WatchResult {
  sent: number;
  accepted: number;
  refused: number;
  errors: number;
  expected: number;
  received: number;
  delivered: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  connectMs: number;
  /**
   * Per accepted bid, in the order sent (latency mode): ms from the run's start to sending it, its HTTP answer,
   * and its first and last watcher's arrival (all ms after sending). Says whether a slow tail started late (the
   * server held the bid before its broadcast) or spread (the broadcast itself took long).
   */
  perBid?: [number, number, number, number][];
}

function pct(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * A minimal socket.io client over a raw WebSocket (engine.io v4 / socket.io v5 text frames): connect to
 * the default namespace, emit with ack, answer pings, hand `bid:placed` payloads to `onBid`. One
 * process has to keep 1,000 of these reading 20 events/s each; socket.io-client's own decoding
 * saturated the load core (so every figure measured the load generator), this does not.
 */
class Watcher {
  private acks = new Map<number, (v: unknown) => void>();
  private nextAck = 0;
  onBid: ((amount: number) => void) | null = null;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) return;
      const text = data.toString();
      if (text === '2') ws.send('3');
      else if (text.startsWith('42["bid:placed",')) {
        if (this.onBid) this.onBid((JSON.parse(text.slice(2)) as [string, { bid: { amount: number } }])[1].bid.amount);
      } else if (text.startsWith('43')) {
        const m = /^43(\d+)/.exec(text);
        if (!m) return;
        const cb = this.acks.get(Number(m[1]));
        this.acks.delete(Number(m[1]));
        cb?.((JSON.parse(text.slice(m[0].length)) as unknown[])[0]);
      }
    });
  }

  emitWithAck(event: string, payload: unknown, timeoutMs = 20_000): Promise<unknown> {
    const id = this.nextAck++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${event}: no ack`)), timeoutMs);
      this.acks.set(id, (v) => {
        clearTimeout(timer);
        resolve(v);
      });
      this.ws.send(`42${id}${JSON.stringify([event, payload])}`);
    });
  }

  close(): void {
    this.ws.terminate();
  }
}

function connect(base: string): Promise<Watcher> {
  const url = `${base.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
  const ws = new WebSocket(url, { perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket connect timeout')), 20_000);
    ws.once('error', reject);
    const onMessage = (data: Buffer) => {
      const text = data.toString();
      if (text.startsWith('0')) ws.send('40');
      else if (text.startsWith('40')) {
        clearTimeout(timer);
        ws.off('message', onMessage);
        resolve(new Watcher(ws));
      } else if (text.startsWith('44')) reject(new Error(`connect refused: ${text}`));
    };
    ws.on('message', onMessage);
  });
}

async function join(socket: Watcher, auctionId: number): Promise<void> {
  const ack = (await socket.emitWithAck('auction:join', { auction_id: auctionId })) as { ok: boolean; detail?: string };
  if (!ack.ok) throw new Error(`auction:join refused: ${ack.detail}`);
}

async function connectAll(cfg: WatchConfig): Promise<Watcher[]> {
  const sockets: Watcher[] = [];
  const batch = 50;
  for (let i = 0; i < cfg.watchers; i += batch) {
    const n = Math.min(batch, cfg.watchers - i);
    const got = await Promise.all(
      Array.from({ length: n }, async (_, k) => {
        const s = await connect(cfg.bases ? cfg.bases[(i + k) % cfg.bases.length] : cfg.base);
        if (cfg.join !== false) await join(s, cfg.auctionId);
        return s;
      }),
    );
    sockets.push(...got);
  }
  return sockets;
}

function post(base: URL, path: string, body: string, agent: http.Agent, id?: Identity, origin?: string): Promise<number> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      origin: origin ?? base.origin,
    };
    if (id) {
      headers.cookie = id.cookie;
      headers['x-csrftoken'] = id.csrf;
    }
    const req = http.request({ host: base.hostname, port: base.port, method: 'POST', path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(10_000, () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

async function latency(cfg: WatchConfig): Promise<WatchResult> {
  const t0 = performance.now();
  const sockets = await connectAll(cfg);
  let slow: Watcher | null = null;
  if (cfg.slowReader) {
    slow = await connect(cfg.base);
    await join(slow, cfg.auctionId);
    // Stop reading: the kernel buffers fill and the server has to keep (or drop) what it cannot write.
    (slow.ws as unknown as { _socket?: { pause(): void } })._socket?.pause();
  }
  const connectMs = performance.now() - t0;
  const sentAt = new Map<number, number>();
  const lat: number[] = [];
  // amount → [sent (ms after start), answer, first arrival, last arrival] (ms after sending)
  const bids = new Map<number, [number, number, number, number]>();
  let received = 0;
  const onBid = (amount: number) => {
    const t = sentAt.get(amount);
    if (t === undefined) return;
    received++;
    const ms = performance.now() - t;
    lat.push(ms);
    const b = bids.get(amount);
    if (b) {
      if (b[2] < 0) b[2] = ms;
      b[3] = ms;
    }
  };
  for (const s of sockets) s.onBid = onBid;
  await new Promise((r) => setTimeout(r, 300));
  const targets = (cfg.bases ?? [cfg.base]).map((b) => new URL(b));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const rate = cfg.rate ?? 20;
  const total = Math.max(1, Math.round(rate * (cfg.seconds ?? 10)));
  let amount = cfg.startPrice ?? 1000;
  let accepted = 0;
  let refused = 0;
  let errors = 0;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    amount += 10;
    const a = amount;
    const body = cfg.bidPath === '/bid' ? JSON.stringify({ auction_id: cfg.auctionId, amount: a }) : JSON.stringify({ auction_item_id: cfg.auctionId, amount: a });
    const sent = performance.now();
    sentAt.set(a, sent);
    const row: [number, number, number, number] = [sent - start, -1, -1, -1];
    bids.set(a, row);
    pending.push(
      post(targets[i % targets.length], cfg.bidPath ?? '/api/bids/', body, agent, cfg.identities?.[i % cfg.identities.length], cfg.origin).then((status) => {
        row[1] = performance.now() - sent;
        if (status === 201) accepted++;
        else if (status >= 400 && status < 500) refused++;
        else errors++;
      }),
    );
  }
  await Promise.all(pending);
  // Stragglers: wait until everything arrived or 15 s passed (returns at once when nothing is missing).
  const expected = accepted * sockets.length;
  const until = performance.now() + 15_000;
  while (received < expected && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
  agent.destroy();
  for (const s of sockets) s.close();
  slow?.close();
  const sorted = Float64Array.from(lat).sort();
  return {
    sent: total,
    accepted,
    refused,
    errors,
    expected,
    received,
    delivered: expected ? received / expected : 0,
    p50: pct(sorted, 50),
    p95: pct(sorted, 95),
    p99: pct(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
    connectMs,
    perBid: [...bids.values()].filter((b) => b[2] >= 0).map((b) => b.map((x) => Math.round(x * 10) / 10) as [number, number, number, number]),
  };
}

async function idle(cfg: WatchConfig): Promise<void> {
  const t0 = performance.now();
  const sockets = await connectAll(cfg);
  process.stdout.write(`READY ${sockets.length}\n`);
  await new Promise<void>((resolve) => {
    process.stdin.on('data', () => undefined);
    process.stdin.on('end', resolve);
    process.stdin.on('close', resolve);
  });
  for (const s of sockets) s.close();
  process.stdout.write(`${JSON.stringify({ connected: sockets.length, connectMs: performance.now() - t0 })}\n`);
}

async function main() {
  const cfg = readConfig(process.argv[2]) as WatchConfig;
  if (cfg.mode === 'idle') await idle(cfg);
  else process.stdout.write(`${JSON.stringify(await latency(cfg))}\n`);
  process.exit(0);
}

if (process.argv[2]) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

/** The config: `@file` (what runLoad passes) or inline JSON. */
function readConfig(arg: string) {
  return JSON.parse(arg.startsWith('@') ? fs.readFileSync(arg.slice(1), 'utf8') : arg);
}
