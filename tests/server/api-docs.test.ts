/**
 * docs/api.md lists every endpoint of the running app with every field of its shared request and response
 * schemas (issue 11 §3: other clients are written from it). A route added without its section, a documented
 * route that no longer exists, or a field of a schema that shared/api.ts names for an endpoint and the docs do
 * not, fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiRows, type Endpoint } from '@shared/api';
import * as accounts from '@shared/schemas/accounts';
import * as admin from '@shared/schemas/admin';
import * as auctions from '@shared/schemas/auctions';
import * as bids from '@shared/schemas/bids';
import * as comments from '@shared/schemas/comments';
import * as notifications from '@shared/schemas/notifications';
import * as reports from '@shared/schemas/reports';
import * as sales from '@shared/schemas/sales';
import * as savedSearches from '@shared/schemas/saved-searches';
import { startTestServer, type TestServer } from '../support/app';
import { declaredRoutes } from '../support/security-routes';

const DOC = fs.readFileSync(path.join(import.meta.dirname, '../../docs/api.md'), 'utf8');

/** `### \`GET /api/x/{id}/\`` → its text up to the next heading. */
function sections(prefix: RegExp): Map<string, string> {
  const out = new Map<string, string>();
  const lines = DOC.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = prefix.exec(lines[i]!);
    if (!m) continue;
    let j = i + 1;
    while (j < lines.length && !lines[j]!.startsWith('#')) j++;
    out.set(m[1]!, lines.slice(i + 1, j).join('\n'));
  }
  return out;
}
const endpoints = sections(/^### `((?:GET|POST|PUT|PATCH|DELETE) \/api\/\S*)`$/);
const types = sections(/^### Type `(\w+)`$/);

/** The keys of an object schema (of an array's element for an array schema). */
function keysOf(schema: z.ZodType): string[] {
  const s = schema instanceof z.ZodArray ? schema.element : schema;
  if (!(s instanceof z.ZodObject)) throw new Error('not an object schema');
  return Object.keys(s.shape);
}

const named = (text: string, key: string) => text.includes(`\`${key}\``);

/** Schemas documented once as a type (`### Type \`Name\``), which an endpoint names instead of their fields. */
const TYPES: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['AuctionImage', auctions.AuctionImage],
  ['AuctionCard', auctions.AuctionCard],
  ['AuctionDetail', auctions.AuctionDetail],
  ['Paged', auctions.AuctionCardPage],
  ['Paged', admin.AdminUsersPage],
  ['ListQuery', auctions.ListQuery],
  ['BidResponse', bids.BidResponse],
  ['CommentResponse', comments.CommentResponse],
  ['NotificationResponse', notifications.NotificationResponse],
  ['CurrentUserData', accounts.CurrentUserData],
  ['AdminUser', accounts.AdminUser],
  ['RatingScore', auctions.RatingScore],
  ['Rating', sales.Rating],
  ['Sale', sales.SaleItem],
  ['MemberRating', sales.MemberRating],
  ['AdminReport', reports.AdminReport],
  ['AuditEntry', reports.AuditEntry],
  ['SavedSearch', savedSearches.SavedSearch],
];

/** The object schemas inside a schema of the table: array elements and union options taken apart. */
function objectsOf(schema: z.ZodType): z.ZodObject[] {
  if (schema instanceof z.ZodArray) return objectsOf(schema.element as z.ZodType);
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap(objectsOf);
  if (schema instanceof z.ZodPipe) return objectsOf(schema.in as z.ZodType);
  return schema instanceof z.ZodObject ? [schema] : [];
}

/**
 * What an endpoint's section of docs/api.md misses of the schemas shared/api.ts gives it (body, query, every
 * answer, its error shape): a documented type the schema is or extends must be named (and its type section
 * name every key); every other key must be named in the section, and so must what it holds.
 */
function undocumented(route: string, text: string, endpoint: Endpoint): string[] {
  const missing: string[] = [];
  const schemas = [endpoint.body, endpoint.query, ...Object.values(endpoint.output), endpoint.error];
  const queue = schemas.filter((x): x is z.ZodType => !!x).flatMap(objectsOf);
  for (let schema = queue.shift(); schema; schema = queue.shift()) {
    const keys = Object.keys(schema.shape);
    let covered = new Set<string>();
    for (const [typeName, type] of TYPES) {
      const typeKeys = keysOf(type);
      if (type !== schema && !typeKeys.every((k) => keys.includes(k))) continue;
      if (typeKeys.length < keys.length && !named(text, typeName)) continue;
      if (!named(text, typeName)) missing.push(`${route}: does not name type ${typeName}`);
      const typeText = types.get(typeName);
      if (typeText === undefined) missing.push(`type ${typeName}: no section`);
      for (const key of typeKeys) if (typeText !== undefined && !named(typeText, key)) missing.push(`type ${typeName}: ${key}`);
      covered = new Set([...covered, ...typeKeys]);
    }
    for (const key of keys.filter((k) => !covered.has(k))) {
      if (!named(text, key)) missing.push(`${route}: ${key}`);
      queue.push(...objectsOf(schema.shape[key] as z.ZodType));
    }
  }
  return missing;
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

describe('docs/api.md', () => {
  it('has a section for every API route of the running app, and none for a route that does not exist', () => {
    const routes = declaredRoutes(t.server.app)
      .filter((r) => r.path.startsWith('/api/'))
      .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
    expect(routes.length).toBeGreaterThan(40);
    const documented = [...endpoints.keys()];
    expect(routes.filter((r) => !endpoints.has(r)), 'routes missing from docs/api.md').toEqual([]);
    expect(documented.filter((d) => !routes.includes(d)), 'documented routes the app does not have').toEqual([]);
  });

  it('every section says who may call it and whether it needs the CSRF token (yes exactly for writes)', () => {
    const wrong: string[] = [];
    for (const [route, text] of endpoints) {
      const write = !route.startsWith('GET ');
      // RFC 8058's one-click unsubscribe is the one write exempt from CSRF (docs/security.md), and says so.
      const exempt = route === 'POST /api/unsubscribe/{token}/';
      if (!/Auth: (none|user|active user|admin)\b/.test(text)) wrong.push(`${route}: no Auth line`);
      if (exempt ? !text.includes('CSRF: no, and no Origin check') : !text.includes(write ? 'CSRF: yes' : 'CSRF: no')) wrong.push(`${route}: CSRF should be ${write ? 'yes' : 'no'}`);
    }
    expect(wrong).toEqual([]);
  });

  it('names every field of the request and response schemas that shared/api.ts gives each endpoint', () => {
    const missing: string[] = [];
    for (const row of apiRows()) {
      const route = `${row.method} ${row.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
      const text = endpoints.get(route);
      if (text === undefined) missing.push(`${route}: no section`);
      else missing.push(...undocumented(route, text, row.endpoint));
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it('documents what a list card carries and what a refused bid carries (issue 11)', () => {
    const card = types.get('AuctionCard')!;
    expect(card).toMatch(/`images` \| `AuctionImage`\[\]/);
    expect(card).toMatch(/`city` \| string/);
    const bid = endpoints.get('POST /api/bids/')!;
    expect(bid).toMatch(/`current_price` \| number/);
    expect(bid).toMatch(/`min_amount` \| number \| `current_price` \+ 10/);
  });

  it('documents the types of sales, ratings and profiles key for key (issue 23), answers that only come paged', () => {
    const missing: string[] = [];
    for (const [name, type] of TYPES.slice(-4)) {
      const text = types.get(name);
      if (text === undefined) missing.push(`type ${name}: no section`);
      else for (const key of keysOf(type)) if (!named(text, key)) missing.push(`type ${name}: ${key}`);
    }
    expect(missing).toEqual([]);
    expect(endpoints.get('GET /api/sales/')).toContain('`Sale`');
    expect(endpoints.get('GET /api/members/{id}/ratings/')).toContain('`MemberRating`');
    expect(types.get('NotificationResponse')).toContain('`rating_received`');
  });

  it('is linked from the README', () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, '../../README.md'), 'utf8');
    expect(readme).toContain('(docs/api.md)');
  });
});
