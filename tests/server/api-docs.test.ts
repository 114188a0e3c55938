/**
 * docs/api.md lists every endpoint of the running app with every field of its shared request and response
 * schemas (issue 11 §3: other clients are written from it). A route added without its section, a documented
 * route that no longer exists, or a schema field the docs do not name fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as accounts from '@shared/schemas/accounts';
import * as auctions from '@shared/schemas/auctions';
import * as bids from '@shared/schemas/bids';
import * as comments from '@shared/schemas/comments';
import * as notifications from '@shared/schemas/notifications';
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

/**
 * The shared schemas each endpoint reads or answers. A schema documented as a type (`### Type \`Name\``) must
 * be named in the endpoint's section and have every key in its type section; any other must have every key
 * in the endpoint's section.
 */
const LIST = [auctions.ListQuery, ['AuctionCard', auctions.AuctionCard], ['Paged', auctions.Paged(auctions.AuctionCard)]] as const;
const SCHEMAS: Record<string, ReadonlyArray<z.ZodType | readonly [string, z.ZodType]>> = {
  'POST /api/user/register/': [accounts.RegisterInput],
  'POST /api/verify/resend/': [accounts.EmailOnlyInput, accounts.DetailResponse],
  'POST /api/login/': [accounts.LoginInput, accounts.LoginResponse],
  'POST /api/logout/': [accounts.DetailResponse],
  'GET /api/user/status/': [accounts.StatusResponse],
  'GET /api/username/': [accounts.UsernameResponse],
  'GET /api/current_user_data/': [['CurrentUserData', accounts.CurrentUserData]],
  'PUT /api/update-profile/': [accounts.UpdateProfileInput, ['CurrentUserData', accounts.CurrentUserData], accounts.DetailResponse],
  'POST /api/change-password/': [accounts.ChangePasswordInput, accounts.DetailResponse],
  'POST /api/password-reset/': [accounts.EmailOnlyInput, accounts.DetailResponse],
  'POST /api/password-reset/confirm/': [accounts.PasswordResetConfirmInput, accounts.DetailResponse],
  'GET /api/auth/google/config/': [accounts.GoogleConfigResponse],
  'POST /api/auth/google/': [accounts.GoogleLoginInput, accounts.GoogleLoginResponse],
  'GET /api/admin/users/': [['AdminUser', accounts.AdminUser]],
  'POST /api/admin/users/{id}/block/': [['AdminUser', accounts.AdminUser], accounts.DetailResponse],
  'POST /api/admin/users/{id}/unblock/': [['AdminUser', accounts.AdminUser], accounts.DetailResponse],
  'POST /api/auctionItems/': [auctions.CreateAuctionInput, auctions.CreateAuctionResponse],
  'GET /api/auction/{id}/': [['AuctionDetail', auctions.AuctionDetail], ['AuctionImage', auctions.AuctionImage]],
  'GET /api/user/username/{auctionId}/': [auctions.SellerResponse],
  'GET /api/auctions/{id}/offer_count/': [auctions.OfferCountResponse],
  'GET /api/auctions/': [['ListQuery', auctions.ListQuery], ...LIST.slice(1)],
  'GET /api/all-auction-items/': [['ListQuery', auctions.ListQuery], ...LIST.slice(1)],
  'GET /api/my-auctions/': [['ListQuery', auctions.ListQuery], ...LIST.slice(1)],
  'GET /api/auctionItems/': [['ListQuery', auctions.ListQuery], ...LIST.slice(1)],
  'GET /api/all-my-biddings/': [['ListQuery', auctions.ListQuery], ...LIST.slice(1)],
  'GET /api/auctions/best/': [['AuctionCard', auctions.AuctionCard]],
  'POST /api/auction-items/{id}/images/': [auctions.ImagesResponse, ['AuctionImage', auctions.AuctionImage]],
  'PUT /api/auction-items/{id}/images/order/': [auctions.ImageOrderInput, auctions.ImagesResponse, ['AuctionImage', auctions.AuctionImage]],
  'POST /api/bids/': [bids.PlaceBidInput, bids.PlacedBidResponse, bids.BidRefusalResponse],
  'GET /api/bids/{auctionId}/': [['BidResponse', bids.BidResponse]],
  'POST /api/users/': [bids.UserNamesInput, bids.UserNamesResponse],
  'GET /api/comments/{auctionId}/': [['CommentResponse', comments.CommentResponse]],
  'POST /api/comments/create/': [comments.CreateCommentInput, ['CommentResponse', comments.CommentResponse]],
  'GET /api/notifications/': [['NotificationResponse', notifications.NotificationResponse]],
  'GET /api/notifications/unread-count/': [notifications.UnreadCountResponse],
  'PATCH /api/notifications/{id}/mark-as-read/': [notifications.MarkReadResponse],
};

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
      if (!/Auth: (none|user|active user|admin)\b/.test(text)) wrong.push(`${route}: no Auth line`);
      if (!text.includes(write ? 'CSRF: yes' : 'CSRF: no')) wrong.push(`${route}: CSRF should be ${write ? 'yes' : 'no'}`);
    }
    expect(wrong).toEqual([]);
  });

  it('names every field of the shared request and response schemas of each endpoint', () => {
    const missing: string[] = [];
    for (const [route, schemas] of Object.entries(SCHEMAS)) {
      const text = endpoints.get(route);
      if (text === undefined) {
        missing.push(`${route}: no section`);
        continue;
      }
      for (const entry of schemas) {
        const [typeName, schema] = Array.isArray(entry) ? (entry as readonly [string, z.ZodType]) : [undefined, entry as z.ZodType];
        if (typeName !== undefined) {
          const typeText = types.get(typeName);
          if (typeText === undefined) missing.push(`type ${typeName}: no section`);
          if (!named(text, typeName)) missing.push(`${route}: does not name type ${typeName}`);
          for (const key of keysOf(schema)) if (typeText !== undefined && !named(typeText, key)) missing.push(`type ${typeName}: ${key}`);
        } else {
          for (const key of keysOf(schema)) if (!named(text, key)) missing.push(`${route}: ${key}`);
        }
      }
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

  it('is linked from the README', () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, '../../README.md'), 'utf8');
    expect(readme).toContain('(docs/api.md)');
  });
});
