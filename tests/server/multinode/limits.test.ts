/**
 * The HTTP rate limits with REDIS_URL: the counters live in Redis, so two nodes count together, with the same
 * limits and the same 429 answers as one node (tests/server/accounts/rate-limit.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/app';
import { createUser } from '../../support/factories';
import { ApiClient } from '../../support/http';
import { startCluster, TEST_REDIS_URL, type Cluster } from '../../support/multinode';

let cluster: Cluster;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  cluster = await startCluster(2, { RATE_LIMIT: '1' });
  [a, b] = cluster.nodes as [TestServer, TestServer];
});
afterAll(() => cluster?.close());

describe('rate limits across nodes (REDIS_URL, RATE_LIMIT=1)', () => {
  it('counts failed logins on both nodes together: the 11th answers 429 JSON in Serbian on either', async () => {
    const u = await createUser(a.ctx);
    const onA = new ApiClient(a.url);
    const onB = new ApiClient(b.url);
    for (let i = 0; i < 10; i++) {
      expect((await (i % 2 ? onB : onA).post('/api/login/', { email: u.email, password: `Pogresna${i}` })).status).toBe(401);
    }
    for (const client of [onA, onB]) {
      const blocked = await client.post('/api/login/', { email: u.email, password: u.password });
      expect(blocked.status).toBe(429);
      expect(blocked.body.detail).toBe('Previše pokušaja. Sačekajte malo pa pokušajte ponovo.');
      expect(blocked.headers.get('retry-after')).toBeTruthy();
      expect(blocked.headers.get('ratelimit')).toMatch(/remaining=0/);
    }
  });

  it('does not count successful logins, on either node', async () => {
    const u = await createUser(a.ctx);
    for (let i = 0; i < 12; i++) {
      expect((await new ApiClient(i % 2 ? b.url : a.url).post('/api/login/', { email: u.email, password: u.password })).status).toBe(200);
    }
  });

  it('limits password-reset mails per e-mail across nodes', async () => {
    const u = await createUser(a.ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await new ApiClient(i % 2 ? b.url : a.url).post('/api/password-reset/', { email: u.email })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('keeps the counters in Redis under the node’s prefix', async () => {
    const { createClient } = await import('redis');
    const client = createClient({ url: TEST_REDIS_URL });
    await client.connect();
    try {
      const keys = await client.keys(`${cluster.prefix}rl:*`);
      expect(keys.some((k) => k.startsWith(`${cluster.prefix}rl:login:`))).toBe(true);
    } finally {
      client.destroy();
    }
  });
});
