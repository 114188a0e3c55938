/**
 * The list cache on two nodes, one database, one Redis (issue 30): a visitor reads on node B (warm), a change
 * is made on node A, and B's very next read shows it (tests/support/list-cache.ts); also the other way round.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import type { TestServer } from '../../support/app';
import { listCacheSuite } from '../../support/list-cache';
import { startCluster, type Cluster } from '../../support/multinode';

let cluster: Cluster;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  cluster = await startCluster(2);
  [a, b] = cluster.nodes as [TestServer, TestServer];
});
afterAll(() => cluster?.close());

describe('read on B, write on A', () => listCacheSuite(() => ({ reader: b, writer: a })));
describe('read on A, write on B', () => listCacheSuite(() => ({ reader: a, writer: b })));
