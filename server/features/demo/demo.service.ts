/**
 * Demo data for a fresh marketplace (SEED_DEMO=1): application code, not database plumbing (it hashes
 * passwords and writes images), so it lives with the features; its SQL is in demo.repository.ts.
 */
import type { AppContext } from '../../context';
import { isPostgres } from '../../db/dialect';
import { hashPassword } from '../accounts/passwords';
import { isoAt } from '../../lib/time';
import { seedDemoAuctions } from './demo-auctions';
import { hasAnyUser, insertUser, withAdvisoryLock } from './demo.repository';

/** Demo logins, also listed in the README. */
export const DEMO_USERS = [
  { first_name: 'Admin Aukcija', email: 'admin@aukcije.rs', password: 'Admin12345!', phone_number: '0601234567', city: 'Beograd', is_admin: 1 },
  { first_name: 'Marko Petrović', email: 'marko@aukcije.rs', password: 'Marko12345', phone_number: '0641112223', city: 'Novi Sad', is_admin: 0 },
  { first_name: 'Jelena Jovanović', email: 'jelena@aukcije.rs', password: 'Jelena12345', phone_number: '0659876543', city: 'Niš', is_admin: 0 },
  { first_name: 'Stefan Nikolić', email: 'stefan@aukcije.rs', password: 'Stefan12345', phone_number: '0627654321', city: 'Kragujevac', is_admin: 0 },
] as const;

/** Any fixed number: nodes starting together take turns at seeding. */
const SEED_LOCK = 20261122;

/**
 * On an empty database: verified demo users and their demo auctions.
 * ADMIN_EMAILS are applied at every start by createApp (accounts/startup.ts), not here.
 * On PostgreSQL several nodes may start at once: they take an advisory lock on one connection, so the
 * first seeds and the others, once it is done, find users and seed nothing.
 */
export async function seedIfEmpty(ctx: AppContext): Promise<void> {
  if (!isPostgres(ctx.db)) return seedUnlocked(ctx);
  // Prototype-chained, not spread: spreading would read ctx.sqlite, which throws on PostgreSQL.
  await withAdvisoryLock(ctx.db, SEED_LOCK, (conn) => seedUnlocked(Object.assign(Object.create(ctx) as AppContext, { db: conn })));
}

async function seedUnlocked(ctx: AppContext): Promise<void> {
  if (await hasAnyUser(ctx.db)) return;
  const now = isoAt(Date.now());
  for (const u of DEMO_USERS) {
    await insertUser(ctx.db, {
      first_name: u.first_name,
      email: u.email,
      phone_number: u.phone_number,
      city: u.city,
      password_hash: await hashPassword(u.password),
      google_sub: null,
      verified_at: now,
      is_admin: u.is_admin || ctx.config.adminEmails.includes(u.email) ? 1 : 0,
      blocked_at: null,
      created_at: now,
    });
  }
  ctx.logger.info('demo users created');
  await seedDemoAuctions(ctx);
}
