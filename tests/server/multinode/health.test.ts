/**
 * GET /api/health/ on a node with REDIS_URL: 200 while Redis answers, 503 once it stops answering, 200 again
 * when it is back. Redis "goes away" by closing a small TCP proxy the node reaches it through.
 */
import net from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../../server/lib/redis';
import { startTestServer, type TestServer } from '../../support/app';
import { ApiClient } from '../../support/http';
import { eventually } from '../../support/marketplace';
import { connectSocket, waitForEvent } from '../../support/sockets';
import { auctionRoom } from '@shared/socket-events';
import { dropRedisPrefix, requireRedis, TEST_REDIS_URL, uniqueRedisPrefix } from '../../support/multinode';

/** A TCP relay to Redis that can be cut (every connection closed, new ones refused) and restored. */
function redisProxy(target: URL) {
  const open = new Set<net.Socket>();
  let up = true;
  const server = net.createServer((client) => {
    if (!up) return client.destroy();
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  return {
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port))),
    cut() {
      up = false;
      for (const s of open) s.destroy();
    },
    restore() {
      up = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const proxy = redisProxy(new URL(TEST_REDIS_URL));
const prefix = uniqueRedisPrefix();
let t: TestServer;

beforeAll(async () => {
  await requireRedis();
  const port = await proxy.listen();
  t = await startTestServer({ REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: prefix, RATE_LIMIT: '1' });
});
afterAll(async () => {
  await t?.close();
  proxy.cut();
  await proxy.close();
  await dropRedisPrefix(prefix);
});

const health = async () => {
  const res = await fetch(`${t.url}/api/health/`);
  return { status: res.status, body: (await res.json()) as unknown };
};

describe('a node whose Redis does not answer at start', () => {
  it('refuses to start, naming REDIS_URL', async () => {
    const closed = redisProxy(new URL(TEST_REDIS_URL));
    const port = await closed.listen();
    closed.cut();
    const logger = pino({ level: 'silent' });
    await expect(connectRedis(`redis://127.0.0.1:${port}`, prefix, logger, 300)).rejects.toThrow(/REDIS_URL/);
    await closed.close();
  });
});

describe('GET /api/health/ with REDIS_URL', () => {
  it('answers 200 while Redis answers, 503 while it does not, 200 once it is back', async () => {
    expect(await health()).toEqual({ status: 200, body: { status: 'ok', database: 'ok', redis: 'ok' } });

    proxy.cut();
    const down = await eventually(async () => {
      const h = await health();
      return h.status === 503 ? h : null;
    });
    expect(down?.body).toEqual({ status: 'unavailable', database: 'ok', redis: 'down' });
    // Events published meanwhile are lost (watchers resync by seq) but never crash the node.
    t.ctx.realtime.toAuction(1, 'comment:deleted', { auction_id: 1, seq: 1, comment_id: 1 });
    // A rate-limited request is refused at once with 503 and a Serbian message, instead of waiting for Redis
    // or passing unthrottled.
    const client = new ApiClient(t.url);
    await client.ensureCsrf();
    const started = Date.now();
    const refused = await client.post('/api/password-reset/', { email: 'neko@example.com' });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'unavailable', detail: 'Usluga je trenutno nedostupna. Pokušajte ponovo za nekoliko trenutaka.' });
    expect(Date.now() - started).toBeLessThan(2000);

    proxy.restore();
    await eventually(async () => (await health()).status === 200, 10_000);
  });

  it('after Redis comes back, events from another node reach this node’s sockets again (subscriptions restored)', async () => {
    const other = await startTestServer({ REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix }, { dataDir: t.dataDir });
    const socket = await connectSocket(t.url);
    try {
      await t.ctx.realtime.io.in(socket.id!).socketsJoin(auctionRoom(77));
      const heard = waitForEvent(socket, 'comment:deleted', 5000);
      // The other node may see this one's subscriptions a moment after the reconnect: emit until heard.
      const timer = setInterval(() => other.ctx.realtime.toAuction(77, 'comment:deleted', { auction_id: 77, seq: 1, comment_id: 3 }), 100);
      try {
        expect(await heard).toEqual({ auction_id: 77, seq: 1, comment_id: 3 });
      } finally {
        clearInterval(timer);
      }
    } finally {
      socket.close();
      await other.close();
    }
  });
});
