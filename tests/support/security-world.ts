/** Actors and objects for the security suites: one server, every kind of user, their auctions and data. */
import type { TestServer } from './app';
import { createAuction, type AuctionOpts } from './auctions';
import { ratingOf, saleOf } from './sales';
import { createUser, loginAs } from './factories';
import { ApiClient } from './http';
import { pngBuffer, imagesForm } from './images';
import type { User } from '../../server/db/types';
import { isoAt } from '../../server/lib/time';

export const ACTORS = ['anonymous', 'bidderA', 'bidderB', 'seller', 'otherSeller', 'admin', 'blocked'] as const;
export type ActorName = (typeof ACTORS)[number];

export interface SecActor {
  name: ActorName;
  user: (User & { password: string }) | null;
  api: ApiClient;
}

export type World = Record<ActorName, SecActor>;

/**
 * Seven actors. `blocked` logged in first and was then blocked by the admin through the API (so their
 * cookie is the one a blocked user really holds); `anonymous` has fetched a CSRF token.
 */
export async function buildWorld(t: TestServer): Promise<World> {
  const mk = async (name: ActorName, opts: Parameters<typeof createUser>[1] = {}): Promise<SecActor> => {
    const user = await createUser(t.ctx, { first_name: name, ...opts });
    return { name, user, api: await loginAs(t.url, user) };
  };
  const [bidderA, bidderB, seller, otherSeller, admin, blocked] = await Promise.all([
    mk('bidderA'),
    mk('bidderB'),
    mk('seller'),
    mk('otherSeller'),
    mk('admin', { admin: true }),
    mk('blocked'),
  ]);
  const anon = new ApiClient(t.url);
  await anon.ensureCsrf();
  const res = await admin.api.post(`/api/admin/users/${blocked.user!.id}/block/`);
  if (res.status !== 200) throw new Error(`block failed: ${res.status} ${res.text}`);
  return { anonymous: { name: 'anonymous', user: null, api: anon }, bidderA, bidderB, seller, otherSeller, admin, blocked };
}

/** An auction of `sellerId` straight in the database. */
export function auctionOf(t: TestServer, sellerId: number, opts: AuctionOpts = {}) {
  return createAuction(t.ctx, sellerId, opts);
}

/** A comment row straight in the database. */
export async function commentOf(t: TestServer, auctionId: number, userId: number, content = 'Komentar'): Promise<number> {
  const row = await t.ctx.db
    .insertInto('comments')
    .values({ auction_id: auctionId, user_id: userId, content, created_at: isoAt(Date.now()) } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A notification row straight in the database. */
export async function notificationOf(t: TestServer, userId: number, auctionId: number | null = null, message = 'Novi komentar'): Promise<number> {
  const row = await t.ctx.db
    .insertInto('notifications')
    .values({ user_id: userId, auction_id: auctionId, kind: 'new_comment', message, is_read: 0, created_at: isoAt(Date.now()) } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A sale (issue 23): an auction of `sellerId` closed with `winnerId` as its winner, straight in the database. */
export function saleFor(t: TestServer, sellerId: number, winnerId: number) {
  return saleOf(t.ctx, sellerId, winnerId);
}

/** A sale of `sellerId` to `winnerId` and the winner's rating of the seller; returns the rating id. */
export async function ratingFor(t: TestServer, sellerId: number, winnerId: number): Promise<number> {
  const sale = await saleOf(t.ctx, sellerId, winnerId);
  return ratingOf(t.ctx, sale, winnerId, sellerId);
}

/** Uploads `n` small PNGs as the seller through the API; returns the image ids. */
export async function uploadImages(api: ApiClient, auctionId: number, n = 2): Promise<number[]> {
  const png = await pngBuffer(20, 20);
  const form = imagesForm(Array.from({ length: n }, (_, i) => ({ name: `s${i}.png`, data: png, type: 'image/png' })));
  const res = await api.post(`/api/auction-items/${auctionId}/images/`, form);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`);
  return (res.body.images as { id: number }[]).map((i) => i.id);
}

/** A valid create-auction multipart body. */
export function auctionForm(fields: Partial<Record<string, string>> = {}): FormData {
  const form = new FormData();
  const all = {
    title: 'Bicikl',
    description: 'Dobar bicikl',
    current_price: '1000',
    auction_duration: '1',
    city: 'Novi Sad',
    phone_number: '0641234567',
    category: 'electronics',
    ...fields,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) form.append(k, v);
  return form;
}

/** An open report by `reporterId` on a fresh auction of `ownerId`, straight in the database (no hourly limit); its id. */
export async function reportOn(t: TestServer, ownerId: number, reporterId: number): Promise<number> {
  const a = await auctionOf(t, ownerId);
  const row = await t.ctx.db
    .insertInto('reports')
    .values({ reporter_id: reporterId, target_type: 'auction', target_id: a.id, owner_id: ownerId, reason: 'fraud', created_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
