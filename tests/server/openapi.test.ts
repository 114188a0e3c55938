/**
 * Issue 29, "The contract as a document": GET /api/openapi.json is an OpenAPI 3.1 document generated from
 * shared/api.ts and its zod schemas (shared/openapi.ts). It validates with a maintained OpenAPI validator
 * (@readme/openapi-parser), names exactly the routes the running app mounts, uses the input side of a schema for
 * requests and the output side for answers, and docs/api.md names every field it has. That every answer of the
 * server tests keeps the document's schemas is checked on each answer (tests/support/openapi.ts, via http.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPONENTS_PREFIX, openApiPath, type JsonSchema } from '@shared/openapi';
import { startTestServer, type TestServer } from '../support/app';
import { ApiClient } from '../support/http';
import { openApiDocument, openApiViolation } from '../support/openapi';
import { declaredRoutes } from '../support/security-routes';

let t: TestServer;
let served: JsonSchema;
beforeAll(async () => {
  t = await startTestServer();
  const res = await new ApiClient(t.url).get('/api/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  served = res.body as JsonSchema;
});
afterAll(() => t?.close());

type Op = { requestBody?: { content: Record<string, { schema: JsonSchema }> }; responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>; parameters?: { name: string; in: string }[] };
const ops = (doc: JsonSchema) =>
  Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([p, byMethod]) => Object.entries(byMethod).map(([m, op]) => ({ route: `${m.toUpperCase()} ${p}`, op })));
const components = () => (served.components as { schemas: Record<string, JsonSchema> }).schemas;
const component = (name: string) => components()[name]!;
const refName = (s: JsonSchema | undefined) => String(s?.$ref ?? '').slice(COMPONENTS_PREFIX.length);

describe('GET /api/openapi.json', () => {
  it('is the document shared/openapi.ts builds, OpenAPI 3.1, and valid for @readme/openapi-parser', async () => {
    expect(served).toEqual(openApiDocument());
    expect(served.openapi).toBe('3.1.0');
    expect(served.info).toMatchObject({ title: 'Aukcije REST API', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    // The validator dereferences in place: it gets a copy.
    const result = await validate(structuredClone(served) as never);
    const errors = result.valid ? [] : result.errors;
    expect(errors, JSON.stringify(errors).slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('the validator does refuse a broken document (a dangling $ref, a response without description)', async () => {
    const broken = structuredClone(served) as { paths: Record<string, Record<string, Op>> };
    (broken.paths['/api/health/']!.get!.responses['200'] as JsonSchema) = { content: { 'application/json': { schema: { $ref: `${COMPONENTS_PREFIX}Nema` } } } };
    const result = await validate(broken as never);
    expect(result.valid).toBe(false);
  });

  it('has every route the app mounts under /api/ and no other', () => {
    const mounted = declaredRoutes(t.server.app)
      .filter((r) => r.path.startsWith('/api/'))
      .map((r) => `${r.method} ${openApiPath(r.path)}`)
      .sort();
    const documented = ops(served)
      .map((o) => o.route)
      .sort();
    expect(mounted.length).toBeGreaterThan(40);
    expect(mounted.filter((r) => !documented.includes(r)), 'mounted routes missing from the document').toEqual([]);
    expect(documented.filter((r) => !mounted.includes(r)), 'documented routes the app does not mount').toEqual([]);
  });

  it('describes requests by the schemas’ input types and answers by their output types (transforms do not come out empty)', () => {
    const byRoute = new Map(ops(served).map((o) => [o.route, o.op]));
    // Registration trims and lower-cases the e-mail and strips the phone's separators (transforms): the request
    // still says what a client sends.
    const register = component(refName(byRoute.get('POST /api/user/register/')!.requestBody!.content['application/json']!.schema));
    const field = (s: JsonSchema, name: string) => {
      const f = (s.properties as Record<string, JsonSchema>)[name]!;
      return f.$ref ? component(refName(f)) : f;
    };
    for (const name of ['email', 'phone_number', 'password']) expect(field(register, name), name).toMatchObject({ type: 'string' });
    expect(register.required).toEqual(expect.arrayContaining(['first_name', 'email', 'phone_number', 'password']));
    // A list's query (preprocessed page numbers) becomes parameters with types.
    const list = byRoute.get('GET /api/auctions/')!;
    expect(list.parameters!.map((p) => `${p.in}:${p.name}`)).toEqual(expect.arrayContaining(['query:page', 'query:q', 'query:category']));
    const detail = byRoute.get('GET /api/auction/{id}/')!;
    expect(detail.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }]);
    // Answers are closed objects: a field the schema does not name is a violation, as in contract.ts.
    const card = component('AuctionCard');
    expect(card.additionalProperties).toBe(false);
    expect(card.required).toEqual(expect.arrayContaining(['id', 'title', 'current_price', 'end_date', 'images', 'bid_count', 'watched']));
    // No schema, at any depth, is the empty schema `{}` (what an unrepresentable transform would give), in a request
    // (a bid's amount is a transform of anything: shared/schemas/bids.ts says what it takes) or in an answer.
    const empties: string[] = [];
    const walk = (s: unknown, at: string) => {
      if (!s || typeof s !== 'object') return;
      if (!Array.isArray(s) && Object.keys(s).length === 0) empties.push(at);
      for (const [k, v] of Object.entries(s)) if (typeof v === 'object' && k !== 'additionalProperties' && k !== 'enum' && k !== 'required') walk(v, `${at}/${k}`);
    };
    for (const { route, op } of ops(served)) {
      for (const [status, r] of Object.entries(op.responses)) walk(r.content?.['application/json']?.schema, `${route} ${status}`);
      walk(op.requestBody, `${route} body`);
      for (const p of op.parameters ?? []) walk(p, `${route} ${p.name}`);
    }
    for (const [name, s] of Object.entries(components())) walk(s, name);
    expect(empties, 'empty schemas').toEqual([]);
    const amount = (component('PlaceBidInput').properties as Record<string, JsonSchema>).amount;
    expect(component(refName(amount)).anyOf).toEqual([
      { type: 'integer', maximum: 1_000_000_000_000 },
      { type: 'string', pattern: '^[+-]?\\d+(\\.\\d+)?$' },
    ]);
    // A refused bid's error is its own component: the refusal (with the prices) or the plain error shape.
    const bidError = component(refName(byRoute.get('POST /api/bids/')!.responses.default!.content!['application/json']!.schema));
    expect(bidError.anyOf).toEqual(expect.arrayContaining([{ $ref: `${COMPONENTS_PREFIX}BidRefusalResponse` }, { $ref: `${COMPONENTS_PREFIX}ApiErrorResponse` }]));
    expect(component('BidRefusalResponse').required).toEqual(expect.arrayContaining(['current_price', 'min_amount', 'amount']));
  });

  it('the check every server test runs on its answers refuses what the document does not allow', () => {
    const card = { id: 1, title: 'Lampa', description: 'Stona lampa', current_price: 1000, end_date: '2026-11-30T10:00:00.000Z', category: 'home', city: 'Novi Sad', seller: 2, first_image: null, images: [], bid_count: 0, status: 'active', watched: false, buy_now_price: null, has_reserve: false, reserve_met: null, outcome: null, relisted_as: null };
    const seen = (url: string, status: number, body: unknown) => ({ method: 'GET', url, status, contentType: 'application/json; charset=utf-8', text: JSON.stringify(body), body });
    expect(openApiViolation(seen('/api/auctions/', 200, [card]))).toBeNull();
    expect(openApiViolation(seen('/api/auctions/', 200, [{ ...card, extra: 1 }]))).toMatch(/extra/);
    expect(openApiViolation(seen('/api/auctions/', 200, [{ ...card, current_price: '1000' }]))).toMatch(/current_price/);
    expect(openApiViolation(seen('/api/auction/3/', 404, { detail: 'Nema.', message: 'Nema.', code: 'not_found' }))).toBeNull();
    expect(openApiViolation(seen('/api/auction/3/', 503, { detail: 'x' }))).toMatch(/message/);
  });
});

/** docs/api.md's section text per `### \`METHOD /api/…\``, and per `### Type \`Name\``. */
function docSections(): { endpoints: Map<string, string>; types: Map<string, string> } {
  const doc = fs.readFileSync(path.join(import.meta.dirname, '../../docs/api.md'), 'utf8').split('\n');
  const endpoints = new Map<string, string>();
  const types = new Map<string, string>();
  for (let i = 0; i < doc.length; i++) {
    const e = /^### `((?:GET|POST|PUT|PATCH|DELETE) \/api\/\S*)`$/.exec(doc[i]!);
    const ty = /^### Type `(\w+)`$/.exec(doc[i]!);
    if (!e && !ty) continue;
    let j = i + 1;
    while (j < doc.length && !doc[j]!.startsWith('#')) j++;
    (e ? endpoints : types).set((e ?? ty)![1]!, doc.slice(i + 1, j).join('\n'));
  }
  return { endpoints, types };
}

/** Every property name in a JSON Schema, following `$ref`s into the components (each component once). */
function propertyNames(schema: unknown, comps: Record<string, JsonSchema>, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  const walk = (s: unknown) => {
    if (Array.isArray(s)) return s.forEach(walk);
    if (!s || typeof s !== 'object') return;
    const o = s as JsonSchema;
    if (typeof o.$ref === 'string') {
      const name = o.$ref.slice(COMPONENTS_PREFIX.length);
      if (!seen.has(name)) {
        seen.add(name);
        walk(comps[name]);
      }
    }
    if (o.properties && typeof o.properties === 'object') for (const k of Object.keys(o.properties)) names.add(k);
    for (const [k, v] of Object.entries(o)) if (k !== 'enum' && k !== 'required' && k !== 'const') walk(v);
  };
  walk(schema);
  return names;
}

describe('docs/api.md against the document', () => {
  it('has a section for every operation of the document and none for an operation it lacks', () => {
    const { endpoints } = docSections();
    const documented = ops(served).map((o) => o.route);
    expect(documented.filter((r) => !endpoints.has(r)), 'operations without a section').toEqual([]);
    expect([...endpoints.keys()].filter((r) => !documented.includes(r)), 'sections without an operation').toEqual([]);
  });

  it('names every field of every operation’s parameters, request and answers, in its section or a type section it names', () => {
    const { endpoints, types } = docSections();
    const comps = components();
    const missing: string[] = [];
    for (const { route, op } of ops(served)) {
      // The section, the type sections it names, the type sections those name, and so on.
      const texts = [endpoints.get(route) ?? ''];
      for (let grew = true; grew; ) {
        const more = [...types].filter(([name, body]) => !texts.includes(body) && texts.some((x) => x.includes(`\`${name}\``))).map(([, body]) => body);
        texts.push(...more);
        grew = more.length > 0;
      }
      const named = (k: string) => texts.some((x) => x.includes(`\`${k}\``));
      const fields = propertyNames({ body: op.requestBody, responses: op.responses }, comps);
      for (const p of op.parameters ?? []) if (p.in === 'query') fields.add(p.name);
      // The error shape's own fields are documented once, in §1 "Errors".
      for (const f of fields) if (!['detail', 'message', 'code'].includes(f) && !named(f)) missing.push(`${route}: ${f}`);
    }
    expect(missing).toEqual([]);
  });
});
