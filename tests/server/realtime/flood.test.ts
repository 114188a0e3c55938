import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { emitWithAck, waitForDisconnect, type TestSocket, socketTracker } from '../../support/sockets';
import type { TimeSyncAck } from '@shared/socket-events';

/** Flood control is on with RATE_LIMIT=1 (production): token bucket 20/s, burst 40, per socket. */
let t: TestServer;
const sockets = socketTracker();
const connect = sockets.connect;

beforeAll(async () => {
  t = await startTestServer({ RATE_LIMIT: '1' });
});
afterEach(sockets.closeAll);
afterAll(async () => {
  await t.close();
});

/** Fires `n` time:sync events at once and collects every ack that arrives within `ms`. */
async function burst(socket: TestSocket, n: number, ms = 1500): Promise<TimeSyncAck[]> {
  const acks: TimeSyncAck[] = [];
  for (let i = 0; i < n; i++) socket.emit('time:sync', { client_time: i }, (r) => acks.push(r));
  const end = Date.now() + ms;
  while (acks.length < n && socket.connected && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  return acks;
}

describe('flood control', () => {
  it('refuses events beyond the burst with a Serbian error ack, without slowing another socket', async () => {
    const noisy = await connect(t.url);
    const calm = await connect(t.url);
    const acks = await burst(noisy, 60);
    expect(acks).toHaveLength(60);
    const refused = acks.filter((a) => 'ok' in a && a.ok === false);
    const answered = acks.filter((a) => 'server_time' in a);
    expect(answered.length).toBeGreaterThanOrEqual(40);
    expect(answered.length).toBeLessThan(50);
    expect(refused.length).toBe(60 - answered.length);
    expect(refused[0]).toEqual({ ok: false, detail: 'Previše zahteva. Sačekajte malo pa pokušajte ponovo.' });
    expect(noisy.connected).toBe(true);

    const started = Date.now();
    expect(await emitWithAck(calm, 'time:sync', { client_time: 1 })).toMatchObject({ client_time: 1 });
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('lets a socket that calmed down in again', async () => {
    const s = await connect(t.url);
    await burst(s, 45);
    await new Promise((r) => setTimeout(r, 300));
    expect(await emitWithAck(s, 'time:sync', { client_time: 7 })).toMatchObject({ client_time: 7 });
  });

  it('disconnects a socket that keeps flooding; a new connection works', async () => {
    const s = await connect(t.url);
    const gone = waitForDisconnect(s, 3000);
    await burst(s, 200);
    expect(await gone).toBe('io server disconnect');
    const again = await connect(t.url);
    expect(await emitWithAck(again, 'time:sync', { client_time: 3 })).toMatchObject({ client_time: 3 });
  });
});
