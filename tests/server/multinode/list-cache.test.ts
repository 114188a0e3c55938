/**
 * The list cache on two nodes, one database, one Redis (issue 30): a visitor reads on node B (warm), a change
 * is made on node A, and B's very next read shows it (tests/support/list-cache.ts); also the other way round.
 * And a client that reloads its list when a socket tells it of the change reads the new state too.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuctionCard, Paged } from '@shared/schemas/auctions';
import type { TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser, loginAs } from '../../support/factories';
import { ApiClient } from '../../support/http';
import { listCacheSuite } from '../../support/list-cache';
import { startCluster, type Cluster } from '../../support/multinode';
import { emitWithAck, socketTracker, waitForEvent } from '../../support/sockets';

let cluster: Cluster;
let a: TestServer;
let b: TestServer;
const sockets = socketTracker();

beforeAll(async () => {
  cluster = await startCluster(2);
  [a, b] = cluster.nodes as [TestServer, TestServer];
});
afterEach(sockets.closeAll);
afterAll(() => cluster?.close());

describe('read on B, write on A', () => listCacheSuite(() => ({ reader: b, writer: a })));
describe('read on A, write on B', () => listCacheSuite(() => ({ reader: a, writer: b })));

describe('a list reloaded on a socket event', () => {
  it('a watcher on B told of a "Kupi odmah" on A reads a list without that auction', async () => {
    const seller = await createUser(a.ctx);
    const auction = await createAuction(a.ctx, seller.id, { title: 'Predmet odmahkupljen', buy_now_price: 5000 });
    const visitor = new ApiClient(b.url);
    const read = async () => ((await visitor.get('/api/auctions/?page=1&q=odmahkupljen')).body as Paged<AuctionCard>).count;
    expect([await read(), await read()]).toEqual([1, 1]);
    const socket = await sockets.connect(b.url);
    expect((await emitWithAck(socket, 'auction:join', { auction_id: auction.id })).ok).toBe(true);
    const closed = waitForEvent(socket, 'auction:closed', 5000);

    const buyer = await loginAs(a.url, await createUser(a.ctx));
    expect((await buyer.post(`/api/auctions/${auction.id}/buy-now/`)).status).toBe(201);
    await closed;
    expect(await read()).toBe(0);
  });
});
