/**
 * The session cache on two nodes, one database, one Redis (issue 30): a browser's session is read (warm) on one
 * node, a logout, block, password change or profile edit is made on the other, and the reading node's very next
 * request shows it (tests/support/session-cache.ts); also the other way round.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import type { TestServer } from '../../support/app';
import { startCluster, type Cluster } from '../../support/multinode';
import { sessionCacheSuite } from '../../support/session-cache';

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
