import { storeSetCookies } from './http';

/**
 * A client that behaves like the original product's web client (React 18 + axios, `withCredentials`,
 * `xsrfCookieName: 'csrftoken'`, `xsrfHeaderName: 'X-CSRFToken'`): it keeps a cookie jar as a browser does, never
 * asks GET /api/csrf/, and sends `X-CSRFToken` only when it holds a `csrftoken` cookie, with that cookie's value.
 * Like a browser on the same origin, it sends `Origin` on every request that is not a GET.
 */
export class OriginalClient {
  readonly jar = new Map<string, string>();
  /** Every request it made, in order (`METHOD path`), so a test can show it never asked for a token. */
  readonly log: string[] = [];

  constructor(readonly baseUrl: string) {}

  cookie(name: string): string | undefined {
    const v = this.jar.get(name);
    return v === undefined ? undefined : decodeURIComponent(v);
  }

  async send<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; location: string | null }> {
    const headers: Record<string, string> = { accept: 'application/json, text/plain, */*' };
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (method !== 'GET') headers.origin = this.baseUrl;
    const token = this.cookie('csrftoken');
    if (token) headers['x-csrftoken'] = token;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    this.log.push(`${method} ${path}`);
    const res = await fetch(this.baseUrl + path, { method, headers, body: payload, redirect: 'manual' });
    storeSetCookies(this.jar, res);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as T, location: res.headers.get('location') };
  }

  get<T = Record<string, unknown>>(path: string) {
    return this.send<T>('GET', path);
  }

  post<T = Record<string, unknown>>(path: string, body?: unknown) {
    return this.send<T>('POST', path, body);
  }
}
