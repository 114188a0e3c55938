/**
 * The feature routers are mounted busiest first (server/features/index.ts, docs/performance.md B1). That is
 * only safe while no request can match two routes: then the order decides nothing but speed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/app';
import { ApiClient } from '../support/http';
import { declaredRoutes, routeMatcher } from '../support/security-routes';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

describe('the API route table', () => {
  it('has no two routes that match the same request, so the mounting order cannot change which one answers', () => {
    const routes = declaredRoutes(t.server.app).filter((r) => r.path.startsWith('/api/'));
    expect(routes.length).toBeGreaterThan(40);
    const clashes: string[] = [];
    for (const r of routes) {
      const sample = r.path.replace(/:[A-Za-z]+/g, '7');
      const matching = routes.filter((o) => o.method === r.method && routeMatcher(o.path).test(sample));
      if (matching.length !== 1) clashes.push(`${r.method} ${sample}: ${matching.map((m) => m.path).join(', ')}`);
    }
    expect(clashes).toEqual([]);
  });

  it('still answers routes of the routers mounted last, and unknown API paths with the Serbian 404', async () => {
    const visitor = new ApiClient(t.url);
    expect((await visitor.get('/api/admin/users/')).status).toBe(403);
    expect((await visitor.get('/api/notifications/unread-count/')).status).toBe(403);
    const missing = await visitor.get('/api/nema-ovoga/');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toEqual(expect.any(String));
  });
});
