/**
 * The REST contract (shared/api.ts) as the tests use it: the body type of a request path, and the check
 * that every answer the tests see is what the table promises, to the key.
 */
import { appendFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { apiRows, type ApiOutput, type ApiRoute, type Endpoint } from '@shared/api';
import { ApiErrorResponse } from '@shared/schemas/errors';

/** `/api/auction/:id/` → `/api/auction/${string}/`. */
type PathPattern<P extends string> = P extends `${infer Head}:${string}/${infer Rest}`
  ? `${Head}${string}/${PathPattern<Rest>}`
  : P extends `${infer Head}:${string}`
    ? `${Head}${string}`
    : P;
type WithQuery<P extends string> = P | `${P}?${string}`;

type RouteFor<M extends string, S extends string> = {
  [R in ApiRoute]: R extends `${M} ${infer P}` ? (S extends WithQuery<PathPattern<P>> ? R : never) : never;
}[ApiRoute];

type Paged = { count: number; results: unknown };
/**
 * The body of an answer the table cannot type (a path built at run time, a route it does not know, a test
 * that reads a bad shape with `post<string>(...)`): the one `any` of the tests, asserted by contract.test.ts.
 * Every answer is still checked against the table at run time (assertContract).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Unchecked = any;
/**
 * A list answers its page for `?page=` (or `&page=`) and the plain array without; a query built at run time
 * could be either, so it stays untyped.
 */
type ListOutput<S extends string, O> = S extends `${string}${'?' | '&'}page=${string}`
  ? Extract<O, Paged>
  : S extends `${string}?${infer Q}`
    ? string extends Q
      ? Unchecked
      : Unpaged<O>
    : Unpaged<O>;
/** The plain answer of a list asked without `page`; a route that always pages (issue 23's lists) answers its page. */
type Unpaged<O> = [Exclude<O, Paged>] extends [never] ? O : Exclude<O, Paged>;

/**
 * The success body of `METHOD path` (`path` as the test writes it, with ids and a query): from the table
 * when the path is known at compile time and names a route, else `any` (paths built at run time, unknown
 * routes). `post<string>(...)` asks for `any` on purpose, for a test that reads a bad shape.
 */
export type BodyOf<M extends string, S extends string> = string extends S
  ? Unchecked
  : [RouteFor<M, S>] extends [never]
    ? Unchecked
    : ContractBody<ListOutput<S, ApiOutput<RouteFor<M, S>>>>;

/**
 * A typed body still lets a test read the error answer of a refused request (`detail`, `code`, a field's
 * messages) without a cast: the status says which of the two it is. No body (204, redirects) reads as the
 * error fields alone.
 */
export type ContractBody<O> = 0 extends 1 & O ? O : [O] extends [undefined] ? ErrorFields : O & ErrorFields;
type ErrorFields = { detail?: string; message?: string; code?: string; [field: string]: unknown };

const matchers = apiRows().map((row) => ({
  ...row,
  re: new RegExp(`^${row.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`),
}));

/** The table's row for a request, or undefined for a path outside the API (media, pages) or unknown to it. */
export function endpointOf(method: string, url: string): { route: ApiRoute; endpoint: Endpoint } | undefined {
  const path = url.split('?')[0]!.split('#')[0]!;
  const row = matchers.find((m) => m.method === method && m.re.test(path));
  return row && { route: row.route, endpoint: row.endpoint };
}

/** Keys of `raw` that the schema dropped (zod strips unknown keys), as paths: `results[0].extra`. */
export function extraKeys(raw: unknown, parsed: unknown, at = ''): string[] {
  if (Array.isArray(raw) && Array.isArray(parsed)) return raw.flatMap((v, i) => extraKeys(v, parsed[i], `${at}[${i}]`));
  if (raw && typeof raw === 'object' && parsed && typeof parsed === 'object') {
    const p = parsed as Record<string, unknown>;
    return Object.entries(raw).flatMap(([k, v]) => (k in p ? extraKeys(v, p[k], at ? `${at}.${k}` : k) : [at ? `${at}.${k}` : k]));
  }
  return [];
}

export interface SeenResponse {
  method: string;
  url: string;
  status: number;
  contentType: string | null;
  text: string;
  body: unknown;
}

/**
 * What is wrong with an answer against the contract, or null when it keeps it: a success status the table
 * does not list, a body that fails its schema, a key the schema does not name (an added, renamed or
 * misspelt field), a 204 with a body, an error that is not the one error shape. Paths outside /api/ and
 * answers that are not JSON where no JSON is promised (redirects) are not checked.
 */
export function contractViolation(r: SeenResponse): string | null {
  const path = r.url.split('?')[0]!;
  if (!path.startsWith('/api/')) return null;
  const where = `${r.method} ${r.url} → ${r.status}`;
  const found = endpointOf(r.method, r.url);
  const json = /^application\/json\b/.test(r.contentType ?? '');
  if (r.status >= 400) {
    if (!json) return `${where}: an error answer that is not JSON (${r.contentType})`;
    return schemaViolation(where, found?.endpoint.error ?? ApiErrorResponse, r.body);
  }
  if (!found) return `${where}: no row in shared/api.ts for this request`;
  const outputs = found.endpoint.output as Record<number, z.ZodType | null | undefined>;
  const schema = outputs[r.status];
  if (schema === undefined) return `${where}: ${found.route} answers ${Object.keys(outputs).join('/')}, not ${r.status}`;
  if (schema === null) return r.status === 204 && r.text !== '' ? `${where}: a 204 with a body` : null;
  if (!json) return `${where}: not JSON (${r.contentType})`;
  return schemaViolation(where, schema, r.body);
}

function schemaViolation(where: string, schema: z.ZodType, body: unknown): string | null {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error.issues);
    return `${where}: ${issues.slice(0, 5).join('; ')}${issues.length > 5 ? `; … (${issues.length - 5} more)` : ''}`;
  }
  if (isDeepStrictEqual(parsed.data, body)) return null;
  const extra = extraKeys(body, parsed.data);
  return `${where}: ${extra.length ? `fields the contract does not name: ${extra.join(', ')}` : 'the schema changed the body'}`;
}

/** zod's issues as `path: message`; of a union (a list or its page), the branch that came closest. */
function describeIssues(issues: readonly z.core.$ZodIssue[], at: PropertyKey[] = []): string[] {
  return issues.flatMap((issue) => {
    const path = [...at, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length) {
      // A branch of the wrong kind (an object where the array came) is never the closest.
      const wrongKind = (e: readonly z.core.$ZodIssue[]) => e.length === 1 && e[0]!.code === 'invalid_type' && e[0]!.path.length === 0;
      const closest = [...issue.errors].sort((a, b) => Number(wrongKind(a)) - Number(wrongKind(b)) || a.length - b.length)[0]!;
      return describeIssues(closest, path);
    }
    return [`${path.map(String).join('.') || '(body)'}: ${issue.message}`];
  });
}

/** A JSON answer parsed, anything else as its text (for a raw fetch that is then checked). */
export function jsonOrText(contentType: string | null, text: string): unknown {
  if (!/^application\/json\b/.test(contentType ?? '') || text === '') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Throws when an answer breaks the contract, so the test that made the request fails with the reason.
 * With CONTRACT_LOG=<file> it also appends `route status` per answer: which rows the suite exercises.
 */
export function assertContract(r: SeenResponse): void {
  const log = process.env.CONTRACT_LOG;
  if (log && r.url.startsWith('/api/')) appendFileSync(log, `${endpointOf(r.method, r.url)?.route ?? `${r.method} (no row)`} ${r.status}\n`);
  const problem = contractViolation(r);
  if (problem) throw new Error(`REST contract (shared/api.ts): ${problem}`);
}

