/**
 * The session cache on two nodes, one database, one Redis (issue 30): a browser's session is read (warm) on one
 * node, a logout, block, password change or profile edit is made on the other, and the reading node's very next
 * request shows it (tests/support/session-cache.ts); also the other way round. And a logout whose shared bump
 * failed (Redis away) is still seen once Redis is back, empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDataDir, type TestServer } from '../../support/app';
import { createUser, loginAs } from '../../support/factories';
import { startOwnRedis, type OwnRedis } from '../../support/faults';
import { startCluster, type Cluster } from '../../support/multinode';
import { sameBrowserOn, sessionCacheSuite } from '../../support/session-cache';

let cluster: Cluster;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  cluster = await startCluster(2);
  [a, b] = cluster.nodes as [TestServer, TestServer];
});
afterAll(() => cluster?.close());

describe('read on B, write on A', () => sessionCacheSuite(() => ({ reader: b, writer: a })));
describe('read on A, write on B', () => sessionCacheSuite(() => ({ reader: a, writer: b })));

describe('Redis lost and back (empty) between a logout and the next request', () => {
  let redis: OwnRedis;
  const nodes: TestServer[] = [];
  afterAll(async () => {
    for (const n of nodes) await n.close();
    await redis?.close();
  });

  it('a logout on A while Redis is away (its bump fails) still leaves the cookie anonymous on B once Redis is back', async () => {
    redis = await startOwnRedis();
    const dataDir = tempDataDir('aukcije-session-redis-');
    for (let i = 0; i < 2; i++) nodes.push(await startTestServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'sc:' }, { dataDir }));
    const [na, nb] = nodes as [TestServer, TestServer];
    const user = await createUser(na.ctx);
    const onA = await loginAs(na.url, user);
    const onB = sameBrowserOn(onA, nb);
    for (let i = 0; i < 2; i++) expect((await onB.get('/api/current_user_data/')).status).toBe(200);

    await redis.kill();
    expect((await onA.post('/api/logout/', {})).status).toBe(200);
    await redis.start();
    expect((await onB.get('/api/current_user_data/')).status).toBe(403);
  });
});
