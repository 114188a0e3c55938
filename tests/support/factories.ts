import type { AppContext } from '../../server/context';
import type { User } from '../../server/db/types';
import { hashPassword } from '../../server/features/accounts/passwords';
import { isoAt } from '../../server/lib/time';
import { ApiClient } from './http';

const hashCache = new Map<string, Promise<string>>();
let counter = 0;

export const DEFAULT_PASSWORD = 'Lozinka123';

export interface UserOpts {
  first_name?: string;
  email?: string;
  password?: string;
  phone_number?: string;
  city?: string;
  verified?: boolean;
  admin?: boolean;
  blocked?: boolean;
}

/** Inserts a user straight into the database (verified unless told otherwise). */
export async function createUser(ctx: AppContext, opts: UserOpts = {}): Promise<User & { password: string }> {
  counter += 1;
  const password = opts.password ?? DEFAULT_PASSWORD;
  if (!hashCache.has(password)) hashCache.set(password, hashPassword(password));
  const now = isoAt(Date.now());
  const user = await ctx.db
    .insertInto('users')
    .values({
      first_name: opts.first_name ?? `Korisnik ${counter}`,
      email: (opts.email ?? `korisnik${counter}-${process.pid}-${Date.now()}@example.com`).toLowerCase(),
      phone_number: opts.phone_number ?? '0641234567',
      city: opts.city ?? 'Beograd',
      password_hash: await hashCache.get(password)!,
      google_sub: null,
      verified_at: opts.verified === false ? null : now,
      is_admin: opts.admin ? 1 : 0,
      blocked_at: opts.blocked ? now : null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...user, password };
}

/** A client logged in as `user` through the real POST /api/login/. */
export async function loginAs(baseUrl: string, user: { email: string; password: string }): Promise<ApiClient> {
  const client = new ApiClient(baseUrl);
  const res = await client.post('/api/login/', { email: user.email, password: user.password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return client;
}

/**
 * After a test wrote a user row straight into the database: announces it as the app's own writers do (the
 * `user:changed` event), so the session cache (server/features/accounts/session-cache.ts) reads the row again.
 */
export async function userRowsWritten(ctx: AppContext, userId?: number): Promise<void> {
  await ctx.events.publish([userId === undefined ? { type: 'user:changed' } : { type: 'user:changed', userId }]);
}
