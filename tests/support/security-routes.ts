/**
 * Security-suite helpers: the REST routes as the running app declares them (walked from the Express
 * router), a snapshot of everything stored (to prove "nothing written"), and a small world of actors.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TestServer } from './app';

export interface DeclaredRoute {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  rawPath?: unknown;
}

/** Every route of the app (Express 5 router stack), e.g. `POST /api/bids/`; the SPA fallback is left out. */
export function declaredRoutes(app: unknown): DeclaredRoute[] {
  const out: DeclaredRoute[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        if (typeof layer.route.path !== 'string') continue; // the SPA's regex fallback (GET only)
        for (const m of Object.keys(layer.route.methods)) {
          if (m === '_all') continue;
          out.push({ method: m.toUpperCase(), path: prefix + layer.route.path });
        }
      } else if (layer.handle?.stack) {
        const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
        walk(layer.handle.stack, prefix + mount);
      }
    }
  };
  const router = (app as { router?: { stack: Layer[] }; _router?: { stack: Layer[] } }).router ?? (app as { _router?: { stack: Layer[] } })._router;
  if (!router) throw new Error('no router on the app');
  walk(router.stack, '');
  return out;
}

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const TABLES = ['users', 'email_tokens', 'sessions', 'auctions', 'auction_images', 'bids', 'auto_bids', 'comments', 'notifications', 'watchlist', 'ratings', 'email_optouts', 'reports', 'audit_log', 'member_blocks', 'saved_searches'] as const;

/**
 * Everything stored: every row of every domain table (sessions by id only: their data carries
 * timestamps that reading may refresh) and the list of files under DATA_DIR/media.
 */
export async function storedState(t: TestServer): Promise<string> {
  const parts: string[] = [];
  for (const table of TABLES) {
    const rows =
      table === 'sessions'
        ? await t.ctx.db.selectFrom('sessions').select('sid').orderBy('sid').execute()
        : table === 'watchlist'
          ? await t.ctx.db.selectFrom('watchlist').selectAll().orderBy('user_id').orderBy('auction_id').execute()
          : table === 'email_optouts'
            ? await t.ctx.db.selectFrom('email_optouts').selectAll().orderBy('user_id').orderBy('kind').execute()
            : table === 'member_blocks'
              ? await t.ctx.db.selectFrom('member_blocks').selectAll().orderBy('blocker_id').orderBy('blocked_id').execute()
              : await t.ctx.db.selectFrom(table).selectAll().orderBy('id').execute();
    parts.push(`${table}:${rows.length}:${JSON.stringify(rows)}`);
  }
  // Mails (outbox/ and the mail_queue's rows) are left out: one sent in the background by an earlier request
  // may land at any time.
  parts.push(`media:${listFiles(path.join(t.dataDir, 'media')).join(',')}`);
  return parts.join('\n');
}

/** Row counts per table (for readable failure messages). */
export async function rowCounts(t: TestServer): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await t.ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

export function listFiles(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p, base));
    else out.push(path.relative(base, p));
  }
  return out.sort();
}

/** `/api/auction/:id/` → a regex that matches concrete paths like `/api/auction/12/`. */
export function routeMatcher(pattern: string): RegExp {
  const re = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+');
  return new RegExp(`^${re}$`);
}
