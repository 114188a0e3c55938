/**
 * The visitors' join snapshots on two nodes, one database, one Redis (issue 30): visitors join on node B (warm),
 * a change is made on node A, and B's very next join shows it with its seq (tests/support/join-snapshots.ts);
 * also the other way round.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import type { TestServer } from '../../support/app';
import { joinSnapshotsSuite } from '../../support/join-snapshots';
import { startCluster, type Cluster } from '../../support/multinode';

let cluster: Cluster;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  cluster = await startCluster(2);
  [a, b] = cluster.nodes as [TestServer, TestServer];
});
afterAll(() => cluster?.close());

describe('join on B, write on A', () => joinSnapshotsSuite(() => ({ reader: b, writer: a })));
describe('join on A, write on B', () => joinSnapshotsSuite(() => ({ reader: a, writer: b })));
