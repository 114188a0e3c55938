/**
 * Broadcast frames joined into one buffer (server/realtime/frames.ts, issue 30 B2): every socket of a room gets
 * byte for byte the frame plain socket.io sends, over WebSocket (short, 16-bit and 64-bit lengths, any text) and
 * over long-polling, and each WebSocket gets it in one plain write instead of a corked pair.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server } from 'socket.io';
import { io as ioClient, type Socket as ClientSocket } from 'socket.io-client';
import WebSocket from 'ws';
import { joinBroadcastFrames } from '../../../server/realtime/frames';
import type { Io } from '../../../server/realtime/io';
import { startTestServer } from '../../support/app';
import { createUser } from '../../support/factories';
import { createAuction } from '../../support/auctions';
import { connectSocket, emitWithAck, waitForEvent } from '../../support/sockets';
import type { BidPlacedEvent } from '@shared/schemas/bids';

interface Running {
  io: Server;
  url: string;
  close(): Promise<void>;
}

async function start(joined: boolean): Promise<Running> {
  const server = http.createServer();
  const io = new Server(server, { serveClient: false });
  if (joined) joinBroadcastFrames(io as unknown as Io);
  io.on('connection', (s) => void s.join('auction:1'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { io, url, close: () => new Promise<void>((resolve) => io.close(() => resolve())) };
}

/** A raw WebSocket watcher (as the bench's): every text message after the connect, as received. */
async function rawWatcher(url: string): Promise<{ messages: string[]; ws: WebSocket }> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`, { perMessageDeflate: false });
  const messages: string[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.on('error', reject);
    ws.on('message', (data) => {
      const text = data.toString();
      if (text.startsWith('0')) ws.send('40');
      else if (text.startsWith('40')) resolve();
      else if (text === '2') ws.send('3');
      else messages.push(text);
    });
  });
  return { messages, ws };
}

const until = async (done: () => boolean) => {
  const deadline = Date.now() + 5000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** Counts the socket writes of `fn` (socket.io's room emits are synchronous). */
function writesOf(fn: () => void): { write: number; writev: number } {
  const proto = net.Socket.prototype as unknown as Record<'_write' | '_writev', (...a: unknown[]) => unknown>;
  const orig = { write: proto._write, writev: proto._writev };
  const n = { write: 0, writev: 0 };
  proto._write = function (this: unknown, ...a: unknown[]) {
    n.write++;
    return orig.write.apply(this, a);
  };
  proto._writev = function (this: unknown, ...a: unknown[]) {
    n.writev++;
    return orig.writev.apply(this, a);
  };
  try {
    fn();
  } finally {
    proto._write = orig.write;
    proto._writev = orig.writev;
  }
  return n;
}

const WATCHERS = 3;
const payloads = [
  { auction_id: 1, seq: 1 },
  { auction_id: 1, seq: 2, bid: { id: 9, bidder_name: 'Đorđe Šćekić \u2028 "x"', amount: 1500 }, end_date: '2026-11-27T10:00:00.000Z' },
  { auction_id: 1, seq: 3, text: 'ž'.repeat(40_000) },
  { auction_id: 1, seq: 4, text: 'a'.repeat(70_000) },
];

let plain: Running;
let joined: Running;
const clients: (WebSocket | ClientSocket)[] = [];

beforeAll(async () => {
  plain = await start(false);
  joined = await start(true);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await Promise.all([plain.close(), joined.close()]);
});

describe('joinBroadcastFrames', () => {
  it('every WebSocket watcher receives what plain socket.io sends, each frame in one write', async () => {
    const watch = async (r: Running) => {
      const ws = await Promise.all(Array.from({ length: WATCHERS }, () => rawWatcher(r.url)));
      clients.push(...ws.map((w) => w.ws));
      await until(() => r.io.sockets.adapter.rooms.get('auction:1')?.size === WATCHERS);
      return ws;
    };
    const [theirs, ours] = [await watch(plain), await watch(joined)];
    const received = (ws: { messages: string[] }[], n: number) => until(() => ws.every((w) => w.messages.length === n));
    for (const [i, p] of payloads.entries()) {
      // One event at a time: engine.io queues an event while the socket's previous write is unfinished.
      await new Promise((r) => setTimeout(r, 20));
      const a = writesOf(() => plain.io.to('auction:1').emit('bid:placed', p));
      const b = writesOf(() => joined.io.to('auction:1').emit('bid:placed', p));
      expect(a).toEqual({ write: 0, writev: WATCHERS });
      expect(b).toEqual({ write: WATCHERS, writev: 0 });
      await Promise.all([received(theirs, i + 1), received(ours, i + 1)]);
    }
    for (const w of [...theirs, ...ours]) expect(w.messages).toEqual(theirs[0]!.messages);
    expect(ours[0]!.messages.map((m) => JSON.parse(m.slice(2))[1])).toEqual(payloads);
  });

  it('a long-polling client and a binary event are served as before', async () => {
    const polling = ioClient(joined.url, { transports: ['polling'], forceNew: true });
    clients.push(polling);
    await new Promise<void>((resolve) => polling.on('connect', () => resolve()));
    await until(() => joined.io.sockets.adapter.rooms.get('auction:1')?.has(polling.id!) === true);
    const got: unknown[] = [];
    polling.on('bid:placed', (p: unknown) => got.push(p));
    polling.on('file', (p: unknown) => got.push(p));
    joined.io.to('auction:1').emit('bid:placed', payloads[1]);
    joined.io.to('auction:1').emit('file', { auction_id: 1, data: Buffer.from([1, 2, 3]) });
    await until(() => got.length === 2);
    expect(got[0]).toEqual(payloads[1]);
    expect(Buffer.from((got[1] as { data: ArrayBuffer }).data)).toEqual(Buffer.from([1, 2, 3]));
  });
});

describe("the app's socket server", () => {
  it('writes each room event to each WebSocket watcher in one write', async () => {
    const t = await startTestServer();
    try {
      const seller = await createUser(t.ctx);
      const a = await createAuction(t.ctx, seller.id);
      const sockets = await Promise.all([connectSocket(t.url), connectSocket(t.url)]);
      try {
        for (const s of sockets) expect(await emitWithAck(s, 'auction:join', { auction_id: a.id })).toMatchObject({ ok: true });
        await new Promise((r) => setTimeout(r, 20));
        const payload = { auction_id: a.id, seq: 99 } as unknown as BidPlacedEvent;
        const got = sockets.map((s) => waitForEvent(s, 'bid:placed'));
        expect(writesOf(() => t.ctx.realtime.toAuction(a.id, 'bid:placed', payload))).toEqual({ write: 2, writev: 0 });
        expect(await Promise.all(got)).toEqual([payload, payload]);
      } finally {
        for (const s of sockets) s.close();
      }
    } finally {
      await t.close();
    }
  });
});
