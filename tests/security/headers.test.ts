/**
 * Browser security headers on every kind of answer (ASVS 5.0 V3.4, V3.2, V13.4): HTML pages, the SPA
 * fallback, API JSON (success and error), uploaded media, static assets' 404. The browser-side check of
 * the CSP with real payloads is tests/e2e/xss.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/app';
import { buildWorld, auctionOf, uploadImages, type World } from '../support/security-world';

let t: TestServer;
let w: World;
beforeAll(async () => {
  t = await startTestServer();
  w = await buildWorld(t);
});
afterAll(() => t?.close());

describe('security headers', () => {
  it('every answer: CSP with object-src/base-uri none and frame-ancestors none, nosniff, referrer policy, HSTS, no X-Powered-By', async () => {
    const a = await auctionOf(t, w.seller.user!.id);
    const [imageId] = await uploadImages(w.seller.api, a.id, 1);
    const img = await t.ctx.db.selectFrom('auction_images').select('large_path').where('id', '=', imageId).executeTakeFirstOrThrow();
    const paths = ['/', '/aukcije', `/aukcija/${a.id}`, '/nepostojeca', '/api/user/status/', '/api/nema-ovoga/', `/api/auction/${a.id}/`, '/api/auction/999999/', `/media/${img.large_path}`, '/media/nema.webp'];
    for (const p of paths) {
      const res = await fetch(t.url + p);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, p).toMatch(/(^|;)\s*object-src 'none'/);
      expect(csp, p).toMatch(/(^|;)\s*base-uri 'none'/);
      expect(csp, p).toMatch(/(^|;)\s*frame-ancestors 'none'/);
      expect(csp, p).toMatch(/(^|;)\s*default-src 'self'/);
      expect(csp, p).not.toMatch(/script-src[^;]*('unsafe-inline'|'unsafe-eval'|\*)/);
      expect(res.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), p).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('strict-transport-security'), p).toMatch(/max-age=(3153\d{4}|\d{9,})/);
      expect(res.headers.get('x-powered-by'), p).toBeNull();
      expect(res.headers.get('access-control-allow-origin'), p).toBeNull();
    }
  });

  it('API answers are never cached and always JSON; HTML is HTML', async () => {
    for (const p of ['/api/user/status/', '/api/nema-ovoga/', '/api/auction/abc/']) {
      const res = await fetch(t.url + p);
      expect(res.headers.get('cache-control'), p).toMatch(/no-store/);
      expect(res.headers.get('content-type'), p).toMatch(/^application\/json/);
    }
    expect((await fetch(`${t.url}/aukcije`)).headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('a cross-origin preflight gets no CORS grant', async () => {
    const res = await fetch(`${t.url}/api/bids/`, {
      method: 'OPTIONS',
      headers: { origin: 'https://zli-sajt.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-csrftoken,content-type' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });
});
