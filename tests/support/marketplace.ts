import type { TestServer } from './app';
import { createUser, loginAs, type UserOpts } from './factories';
import type { ApiClient } from './http';
import type { User } from '../../server/db/types';
import { auctionRoom } from '@shared/socket-events';
import type { TestSocket } from './sockets';

export interface Actor {
  user: User & { password: string };
  api: ApiClient;
}

/** A user in the database and an ApiClient logged in as them. */
export async function actor(t: TestServer, opts: UserOpts = {}): Promise<Actor> {
  const user = await createUser(t.ctx, opts);
  return { user, api: await loginAs(t.url, user) };
}

export function bid(api: ApiClient, auctionId: number, amount: unknown) {
  return api.post('/api/bids/', { auction_item_id: auctionId, amount });
}

/** The auction row as stored. */
export function auctionRow(t: TestServer, id: number) {
  return t.ctx.db.selectFrom('auctions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Notifications of one user (optionally one kind), oldest first, straight from the database. */
export function notificationsOf(t: TestServer, userId: number, kind?: string) {
  let q = t.ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', userId);
  if (kind) q = q.where('kind', '=', kind);
  return q.orderBy('id', 'asc').execute();
}

/** Puts a connected test socket into room auction:{id} on the server side (independent of the join protocol). */
export async function watchAuction(t: TestServer, socket: TestSocket, auctionId: number): Promise<void> {
  await t.ctx.realtime.io.in(socket.id!).socketsJoin(auctionRoom(auctionId));
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes. */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 5000, stepMs = 50): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
