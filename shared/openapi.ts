/**
 * The REST contract as an OpenAPI 3.1 document, generated from the contract table (shared/api.ts) and its zod
 * schemas with zod 4's JSON Schema output: request bodies and queries as the schemas' *input* types (what a
 * client sends, before trimming, defaults and transforms), answers as their *output* types (what the server
 * writes). A route added to the table appears here without further edits. Served at GET /api/openapi.json;
 * tests/server/openapi.test.ts validates it and checks it against the mounted routes and docs/api.md, and
 * tests/support/contract.ts checks every answer the server tests see against its schemas.
 *
 * Schemas that shared/schemas/* export are components under their export name (`AuctionCard`); a request
 * schema whose input differs from its output is its own component (`…Input`). A schema the table builds in
 * place (a union of two errors) is a component named after its operation (`PostApiBidsError`).
 */
import { z } from 'zod';
import { apiRows, type Endpoint, type HttpMethod } from './api';
import * as accounts from './schemas/accounts';
import * as admin from './schemas/admin';
import * as auctions from './schemas/auctions';
import * as auctionEdits from './schemas/auction-edits';
import * as autobid from './schemas/autobid';
import * as bids from './schemas/bids';
import * as blocks from './schemas/blocks';
import * as comments from './schemas/comments';
import * as errors from './schemas/errors';
import * as health from './schemas/health';
import * as notifications from './schemas/notifications';
import * as openapi from './schemas/openapi';
import * as notificationSettings from './schemas/notification-settings';
import * as reports from './schemas/reports';
import * as sales from './schemas/sales';
import * as watchlist from './schemas/watchlist';
import * as savedSearches from './schemas/saved-searches';

export type JsonSchema = { [key: string]: unknown };
type Io = 'input' | 'output';

/** The modules whose exported schemas keep their names as components (others are named after their operation). */
const NAMED_MODULES: readonly object[] = [accounts, admin, auctions, auctionEdits, autobid, bids, blocks, comments, errors, health, notifications, notificationSettings, openapi, reports, sales, savedSearches, watchlist];

export const COMPONENTS_PREFIX = '#/components/schemas/';

/** `/api/auction/:id/` → `/api/auction/{id}/`: an Express path in OpenAPI's template form. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_]\w*)/g, '{$1}');
}

/** `POST /api/auction-items/:id/images/` → `PostApiAuctionItemsIdImages`. */
function operationName(method: HttpMethod, path: string): string {
  const words = [method.toLowerCase(), ...path.split(/[^A-Za-z0-9]+/)].filter(Boolean);
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** The first export name of every schema the named modules export. */
function exportNames(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  for (const mod of NAMED_MODULES) {
    for (const [name, value] of Object.entries(mod)) {
      if (value instanceof z.ZodType && !names.has(value)) names.set(value, name);
    }
  }
  return names;
}

interface Use {
  schema: z.ZodType;
  io: Io;
  /** The component name when the schema has no export name. */
  fallback: string;
}

/** Every schema the table uses, with the side (input/output) it is used on. */
function usesOf(rows: ReturnType<typeof apiRows>): Use[] {
  const uses: Use[] = [];
  for (const row of rows) {
    const op = operationName(row.method, row.path);
    const e: Endpoint = row.endpoint;
    if (e.body) uses.push({ schema: e.body, io: 'input', fallback: `${op}Body` });
    for (const [status, schema] of Object.entries(e.output)) if (schema) uses.push({ schema, io: 'output', fallback: `${op}Response${status}` });
    uses.push({ schema: e.error ?? errors.ApiErrorResponse, io: 'output', fallback: `${op}Error` });
  }
  return uses;
}

/** A component name per side: inputs get `Input` unless the name already says so. */
function componentName(name: string, io: Io): string {
  return io === 'output' || /(Input|Query)$/.test(name) ? name : `${name}Input`;
}

interface Side {
  /** The component name of a schema on this side. */
  nameOf: Map<z.ZodType, string>;
  schemas: Record<string, JsonSchema>;
}

/**
 * One side's components: every named export and every schema the table uses on that side, converted in one
 * go (zod's registry form), so that a schema inside another becomes a `$ref` to its component.
 */
function side(io: Io, uses: Use[], names: Map<z.ZodType, string>): Side {
  const registry = z.registry<{ id: string }>();
  const nameOf = new Map<z.ZodType, string>();
  const taken = new Set<string>();
  const add = (schema: z.ZodType, wanted: string) => {
    if (nameOf.has(schema)) return;
    // `Foo` and `FooInput` both exported: on the input side the second one to come gets a number.
    let name = wanted;
    for (let i = 2; taken.has(name); i++) name = `${wanted}${i}`;
    taken.add(name);
    nameOf.set(schema, name);
    registry.add(schema, { id: name });
  };
  for (const u of uses) if (u.io === io) add(u.schema, componentName(names.get(u.schema) ?? u.fallback, io));
  for (const [schema, name] of names) add(schema, componentName(name, io));
  const out = z.toJSONSchema(registry, { io, target: 'draft-2020-12', unrepresentable: 'any', uri: (id) => COMPONENTS_PREFIX + id });
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(out.schemas)) {
    if (name === '__shared') throw new Error('openapi: a schema is shared without a name (cycles are not expected)');
    const { $schema: _s, $id: _i, ...rest } = schema as JsonSchema;
    schemas[name] = rest;
  }
  return { nameOf, schemas };
}

const ref = (name: string): JsonSchema => ({ $ref: COMPONENTS_PREFIX + name });

/** The schema of a query as one inline JSON Schema (input side), its unions merged into one list of parameters. */
function queryParameters(query: z.ZodType): JsonSchema[] {
  const json = z.toJSONSchema(query, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  const options = (json.anyOf as JsonSchema[] | undefined) ?? [json];
  const props = new Map<string, { schemas: JsonSchema[]; requiredIn: number }>();
  for (const option of options) {
    const required = new Set((option.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((option.properties as Record<string, JsonSchema> | undefined) ?? {})) {
      const p = props.get(name) ?? { schemas: [], requiredIn: 0 };
      if (!p.schemas.some((s) => JSON.stringify(s) === JSON.stringify(schema))) p.schemas.push(schema);
      if (required.has(name)) p.requiredIn += 1;
      props.set(name, p);
    }
  }
  return [...props].map(([name, p]) => ({
    name,
    in: 'query',
    required: p.requiredIn === options.length,
    schema: p.schemas.length === 1 ? p.schemas[0] : { anyOf: p.schemas },
  }));
}

/** Path parameters: ids (`id`, `…Id`) are positive integers, anything else (a verification code) a string. */
function pathParameters(path: string): JsonSchema[] {
  return [...path.matchAll(/:([A-Za-z_]\w*)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'id' || /Id$/.test(name!) ? { type: 'integer', minimum: 1 } : { type: 'string' },
  }));
}

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'No Content', 302: 'Redirect' };

function responses(e: Endpoint, out: Side): Record<string, JsonSchema> {
  const result: Record<string, JsonSchema> = {};
  for (const [status, schema] of Object.entries(e.output)) {
    const description = STATUS_TEXT[Number(status)] ?? `Status ${status}`;
    if (schema) result[status] = { description, content: json(ref(out.nameOf.get(schema)!)) };
    else if (Number(status) === 302) result[status] = { description, headers: { Location: { schema: { type: 'string' }, description: 'Where the browser goes next' } } };
    else result[status] = { description };
  }
  result.default = {
    description: 'An error: 4xx for a refused request, 503 `unavailable` while the database or Redis does not answer (docs/api.md §1)',
    content: json(ref(out.nameOf.get(e.error ?? errors.ApiErrorResponse)!)),
  };
  return result;
}

function operation(row: ReturnType<typeof apiRows>[number], input: Side, out: Side): JsonSchema {
  const e: Endpoint = row.endpoint;
  const write = row.method !== 'GET';
  const parameters = [...pathParameters(row.path), ...(e.query ? queryParameters(e.query) : [])];
  const op: JsonSchema = {
    operationId: operationName(row.method, row.path),
    tags: [row.path.split('/')[2] ?? 'api'],
    ...(parameters.length ? { parameters } : {}),
  };
  if (e.body) op.requestBody = { required: true, content: json(ref(input.nameOf.get(e.body)!)) };
  else if (e.upload) {
    op.requestBody = {
      required: true,
      content: { 'multipart/form-data': { schema: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } } } } },
    };
  }
  op.responses = responses(e, out);
  // Writes need the CSRF token; the session cookie is sent where there is one (docs/api.md §1).
  op.security = write ? [{ csrfToken: [] }, { csrfToken: [], session: [] }] : [{}, { session: [] }];
  return op;
}

/** Every `$ref` name inside `value`. */
function refsIn(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) refsIn(v, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENTS_PREFIX)) found.add(v.slice(COMPONENTS_PREFIX.length));
      else refsIn(v, found);
    }
  }
}

/**
 * The components that the operations reach (directly or through other components), each once: request bodies
 * from the input side, answers from the output side, and a component's own references from its side.
 */
function reachable(paths: Record<string, Record<string, JsonSchema>>, input: Side, out: Side): Record<string, JsonSchema> {
  const kept: Record<string, JsonSchema> = {};
  const queue: [Side, string][] = [];
  const enqueue = (side: Side, value: unknown) => {
    const found = new Set<string>();
    refsIn(value, found);
    for (const name of found) queue.push([side, name]);
  };
  for (const ops of Object.values(paths)) {
    for (const op of Object.values(ops)) {
      enqueue(input, op.requestBody);
      enqueue(out, op.responses);
    }
  }
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [side, name] = next;
    const schema = side.schemas[name];
    if (!schema) throw new Error(`openapi: no component ${name}`);
    if (name in kept) {
      if (JSON.stringify(kept[name]) !== JSON.stringify(schema)) throw new Error(`openapi: two different components named ${name}`);
      continue;
    }
    kept[name] = schema;
    enqueue(side, schema);
  }
  return Object.fromEntries(Object.entries(kept).sort(([a], [b]) => a.localeCompare(b)));
}

export interface OpenApiOptions {
  /** The app's version (package.json). */
  version: string;
}

/** The OpenAPI 3.1 document of every route in shared/api.ts. */
export function buildOpenApiDocument(opts: OpenApiOptions): JsonSchema {
  const rows = apiRows();
  const names = exportNames();
  const uses = usesOf(rows);
  const input = side('input', uses, names);
  const out = side('output', uses, names);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const row of rows) (paths[openApiPath(row.path)] ??= {})[row.method.toLowerCase()] = operation(row, input, out);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Aukcije REST API',
      version: opts.version,
      description: 'Generated from shared/api.ts and shared/schemas/* (zod). The prose, with who may call what: docs/api.md.',
    },
    paths,
    components: {
      schemas: reachable(paths, input, out),
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'sessionid', description: 'Set by logging in (HttpOnly)' },
        csrfToken: { type: 'apiKey', in: 'header', name: 'X-CSRFToken', description: 'The value of the `csrftoken` cookie; every write needs it' },
      },
    },
  };
}
