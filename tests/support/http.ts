import { assertContract, type BodyOf } from './contract';

type RequestOptions = { csrf?: boolean | string; headers?: Record<string, string>; raw?: BodyInit };

/** An answer as a test reads it; `body` is typed by shared/api.ts when the path names a route (BodyOf). */
export interface ApiResponse<B> {
  status: number;
  body: B;
  headers: Headers;
  text: string;
}

/**
 * A tiny browser-like HTTP client over real fetch: a cookie jar, and the CSRF header taken from the
 * `csrftoken` cookie the way the spec's client does it. Every answer is checked against the REST contract
 * (shared/api.ts, tests/support/contract.ts): one that drifts from it fails the test that asked.
 */
/** Keeps a response's Set-Cookie lines in `jar` as a browser would (an empty or expired cookie is removed). */
export function storeSetCookies(jar: Map<string, string>, res: Response): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const idx = pair.indexOf('=');
    const name = pair.slice(0, idx).trim();
    const value = pair.slice(idx + 1).trim();
    if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}

export class ApiClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    private readonly origin: string | null = baseUrl,
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  csrfToken(): string | undefined {
    const v = this.cookies.get('csrftoken');
    return v ? decodeURIComponent(v) : undefined;
  }

  private storeCookies(res: Response) {
    storeSetCookies(this.cookies, res);
  }

  /** Makes sure a CSRF token exists (GET /api/csrf/) before a state-changing call. */
  async ensureCsrf(): Promise<string> {
    if (!this.csrfToken()) await this.request('GET', '/api/csrf/');
    return this.csrfToken()!;
  }

  async request<M extends string, S extends string>(
    method: M,
    path: S,
    body?: unknown,
    opts: RequestOptions = {},
  ): Promise<ApiResponse<BodyOf<M, S>>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (this.cookies.size) headers.cookie = this.cookieHeader;
    if (this.origin && method !== 'GET') headers.origin ??= this.origin;
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(method);
    if (unsafe && opts.csrf !== false) {
      headers['x-csrftoken'] = typeof opts.csrf === 'string' ? opts.csrf : await this.ensureCsrf();
      headers.cookie = this.cookieHeader;
    }
    let payload: BodyInit | undefined = opts.raw;
    if (body !== undefined && payload === undefined) {
      if (body instanceof FormData) payload = body;
      else {
        payload = JSON.stringify(body);
        headers['content-type'] = 'application/json';
      }
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body: payload, redirect: 'manual' });
    this.storeCookies(res);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    assertContract({ method, url: path, status: res.status, contentType: res.headers.get('content-type'), text, body: parsed });
    return { status: res.status, body: parsed as BodyOf<M, S>, headers: res.headers, text };
  }

  get<S extends string>(path: S, opts?: RequestOptions) {
    return this.request('GET', path, undefined, opts);
  }
  post<S extends string>(path: S, body?: unknown, opts?: RequestOptions) {
    return this.request('POST', path, body, opts);
  }
  put<S extends string>(path: S, body?: unknown, opts?: RequestOptions) {
    return this.request('PUT', path, body, opts);
  }
  patch<S extends string>(path: S, body?: unknown, opts?: RequestOptions) {
    return this.request('PATCH', path, body, opts);
  }
  delete<S extends string>(path: S, opts?: RequestOptions) {
    return this.request('DELETE', path, undefined, opts);
  }
}
