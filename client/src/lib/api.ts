/**
 * The one HTTP client of the app: same-origin credentials, the CSRF header on state-changing requests,
 * JSON in and out. Non-2xx answers throw ApiError (status + parsed body); no answer throws NetworkError.
 * Features call `api(route, input)` and `upload(route, input)`, typed by the REST contract's table
 * (shared/api.ts): the route names the method and path, the input its path parameters, body and query, and
 * the answer is the table's output. `apiFetch` and `apiUpload` are the untyped transport underneath.
 */
import type { z } from 'zod';
import type { API, ApiBody as RouteBody, ApiOutput, ApiRoute } from '@shared/api';
import type { CsrfResponse } from '@shared/schemas/accounts';
import type { ApiErrorResponse } from '@shared/schemas/errors';

/** An error answer as read: the contract's one error shape, though a proxy's answer may lack any field. */
export type ApiBody = Record<string, unknown> & Partial<Pick<ApiErrorResponse, 'detail' | 'message' | 'code'>>;

export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiBody;
  constructor(status: number, body: ApiBody) {
    super(typeof body.detail === 'string' ? body.detail : typeof body.message === 'string' ? body.message : `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
  /** The first message of a field error list (e.g. `email`, `amount`), if any. */
  field(name: string): string | undefined {
    const v = this.body[name];
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
    if (typeof v === 'string') return v;
    return undefined;
  }
}

export class NetworkError extends Error {
  constructor(cause?: unknown) {
    super('Network error');
    this.name = 'NetworkError';
    this.cause = cause;
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain object is sent as JSON; FormData as multipart (the browser sets the boundary). */
  body?: unknown;
  signal?: AbortSignal;
}

const CSRF_COOKIE = 'csrftoken';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [k, ...rest] = part.trim().split('=');
    if (k === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

let csrfPromise: Promise<string | undefined> | null = null;

/** The CSRF token from the cookie; fetches GET /api/csrf/ once when the cookie is missing. */
export async function csrfToken(force = false): Promise<string | undefined> {
  const fromCookie = readCookie(CSRF_COOKIE);
  if (fromCookie && !force) return fromCookie;
  csrfPromise ??= fetch('/api/csrf/', { credentials: 'same-origin' })
    .then(async (r) => {
      const body = (await r.json().catch(() => ({}))) as Partial<CsrfResponse>;
      return readCookie(CSRF_COOKIE) ?? body.csrftoken;
    })
    .catch(() => undefined)
    .finally(() => {
      csrfPromise = null;
    });
  return csrfPromise;
}

async function parseBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { detail: text };
  }
}

/**
 * A 403 `not_authenticated`: the server no longer knows this browser's session (cookies cleared, logout
 * elsewhere, blocked, password changed, expired). Not `forbidden` (logged in but not allowed), not `csrf`
 * (retried with a fresh token), not a wrong login (400/401).
 */
export function isNotAuthenticated(err: unknown): boolean {
  return err instanceof ApiError && err.status === 403 && err.body.code === 'not_authenticated';
}

const sessionEndListeners = new Set<() => void>();

/**
 * Called on every `not_authenticated` answer, before the caller sees the error (the app forgets the user
 * and goes to /login; see features/auth/SessionEndWatcher). Returns the unsubscribe function.
 */
export function onNotAuthenticated(listener: () => void): () => void {
  sessionEndListeners.add(listener);
  return () => void sessionEndListeners.delete(listener);
}

function noteError(err: unknown): void {
  if (!isNotAuthenticated(err)) return;
  for (const l of [...sessionEndListeners]) {
    try {
      l();
    } catch {
      // A listener's failure must not replace the answer's error.
    }
  }
}

/** fetch() for the API, untyped (features call `api`). Resolves with the parsed JSON (undefined for 204). */
export async function apiFetch(path: string, opts: ApiOptions = {}): Promise<unknown> {
  try {
    try {
      return await send(path, opts, false);
    } catch (err) {
      // A session that ended (logout, expiry) leaves a stale token cookie: fetch a fresh one and retry once.
      if (err instanceof ApiError && err.status === 403 && err.body.code === 'csrf') return await send(path, opts, true);
      throw err;
    }
  } catch (err) {
    noteError(err);
    throw err;
  }
}

async function send(path: string, opts: ApiOptions, freshToken: boolean): Promise<unknown> {
  const method = opts.method ?? (opts.body !== undefined ? 'POST' : 'GET');
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  if (UNSAFE.has(method)) {
    const token = await csrfToken(freshToken);
    if (token) headers['X-CSRFToken'] = token;
  }
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body, credentials: 'same-origin', signal: opts.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new NetworkError(err);
  }
  const data = await parseBody(res);
  if (!res.ok) {
    const errBody = data && typeof data === 'object' ? (data as ApiBody) : {};
    throw new ApiError(res.status, errBody);
  }
  return data;
}

/**
 * POST multipart with upload progress (XMLHttpRequest, since fetch has no upload progress), untyped (features
 * call `upload`). `onProgress` gets a fraction 0..1.
 */
export async function apiUpload(
  path: string,
  formData: FormData,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<unknown> {
  const token = await csrfToken();
  return new Promise<unknown>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('X-CSRFToken', token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && onProgress) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let data: unknown;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        data = { detail: xhr.responseText };
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        resolve(data);
      } else {
        const err = new ApiError(xhr.status, data && typeof data === 'object' ? (data as ApiBody) : {});
        noteError(err);
        reject(err);
      }
    };
    xhr.onerror = () => reject(new NetworkError());
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(formData);
  });
}

// ---------------------------------------------------------------- the contract's routes, typed

type PathOf<R extends ApiRoute> = R extends `${string} ${infer P}` ? P : never;
type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer Rest}`
  ? N | ParamNames<Rest>
  : P extends `${string}:${infer N}`
    ? N
    : never;
type QuerySchema<R extends ApiRoute> = (typeof API)[R] extends { query: infer Q extends z.ZodType } ? Q : never;
/** Every key of every member of a union (an admin's list query has more than the public one). */
type KeysOf<T> = T extends unknown ? keyof T : never;

/** The query of a route that reads one: the keys its schema names, as the URL carries them. */
export type ApiQuery<R extends ApiRoute> = { [K in KeysOf<z.output<QuerySchema<R>>>]?: string | number };

/** What a route takes besides its name: path parameters, body and query where it has them, an abort signal. */
export type ApiInput<R extends ApiRoute> = { signal?: AbortSignal } & ([ParamNames<PathOf<R>>] extends [never]
  ? unknown
  : { params: Record<ParamNames<PathOf<R>>, string | number> }) &
  ([RouteBody<R>] extends [never] ? unknown : { body: RouteBody<R> | FormData }) &
  ([QuerySchema<R>] extends [never] ? unknown : { query?: ApiQuery<R> });

type Paged = { count: number; results: unknown };
type Or<T, Otherwise> = [T] extends [never] ? Otherwise : T;
/** The table's answer; a list asked for a `page` answers the page, else the plain array (as the server does). */
export type ApiAnswer<R extends ApiRoute, I> = I extends { query: { page: string | number } }
  ? Or<Extract<ApiOutput<R>, Paged>, ApiOutput<R>>
  : Or<Exclude<ApiOutput<R>, Paged>, ApiOutput<R>>;

/** `GET /api/auction/:id/` with `{ id: 7 }` and a query → `/api/auction/7/?…` (empty query values left out). */
export function routePath(route: ApiRoute, params: Record<string, string | number> = {}, query: Record<string, string | number | undefined> = {}): string {
  const path = route.slice(route.indexOf(' ') + 1).replace(/:([A-Za-z]+)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`${route}: no value for :${name}`);
    return encodeURIComponent(String(params[name]));
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') search.set(k, String(v));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

interface LooseInput {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * One request of the REST contract: `api('GET /api/auction/:id/', { params: { id } })`,
 * `api('POST /api/bids/', { body: { auction_item_id, amount } })`. Resolves with the answer shared/api.ts
 * promises for that route; fails as apiFetch does (ApiError, NetworkError, the CSRF retry, session end).
 */
export function api<R extends ApiRoute, const I extends ApiInput<R>>(route: R, ...[input]: object extends I ? [I?] : [I]): Promise<ApiAnswer<R, I>> {
  const { params, query, body, signal }: LooseInput = input ?? {};
  const method = route.slice(0, route.indexOf(' ')) as NonNullable<ApiOptions['method']>;
  // The server answers what the table says: its tests parse every answer against it (tests/support/contract.ts).
  return apiFetch(routePath(route, params, query), { method, body, signal }) as Promise<ApiAnswer<R, I>>;
}

/** A multipart POST of the contract with upload progress, e.g. `upload('POST /api/auction-items/:id/images/', …)`. */
export function upload<R extends ApiRoute>(
  route: R,
  input: ApiInput<R> & { form: FormData; onProgress?: (fraction: number) => void },
): Promise<ApiOutput<R>> {
  const { params }: LooseInput = input;
  return apiUpload(routePath(route, params), input.form, input.onProgress, input.signal) as Promise<ApiOutput<R>>;
}
