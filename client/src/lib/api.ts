/**
 * The one HTTP client of the app: same-origin credentials, the CSRF header on state-changing requests,
 * JSON in and out. Non-2xx answers throw ApiError (status + parsed body); no answer throws NetworkError.
 */
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

/** fetch() for the API. Resolves with the parsed JSON (undefined for 204). */
export async function apiFetch<T = unknown>(path: string, opts: ApiOptions = {}): Promise<T> {
  try {
    try {
      return await send<T>(path, opts, false);
    } catch (err) {
      // A session that ended (logout, expiry) leaves a stale token cookie: fetch a fresh one and retry once.
      if (err instanceof ApiError && err.status === 403 && err.body.code === 'csrf') return await send<T>(path, opts, true);
      throw err;
    }
  } catch (err) {
    noteError(err);
    throw err;
  }
}

async function send<T>(path: string, opts: ApiOptions, freshToken: boolean): Promise<T> {
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
  return data as T;
}

/**
 * POST multipart with upload progress (XMLHttpRequest, since fetch has no upload progress).
 * `onProgress` gets a fraction 0..1.
 */
export async function apiUpload<T = unknown>(
  path: string,
  formData: FormData,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  const token = await csrfToken();
  return new Promise<T>((resolve, reject) => {
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
        resolve(data as T);
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
