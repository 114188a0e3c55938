/**
 * The OpenAPI document (shared/openapi.ts, served at GET /api/openapi.json) as the tests use it: every answer the
 * server tests see (tests/support/http.ts → contract.ts) is also validated against the document's JSON Schema for
 * its operation and status, with Ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect). The zod check in contract.ts
 * and this one must agree: a schema that zod's JSON Schema output gets wrong fails here.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApiDocument, type JsonSchema } from '@shared/openapi';
import pkg from '../../package.json';
import type { SeenResponse } from './contract';

// ajv-formats is CommonJS with `exports.default`: under ESM interop the function is the default's default.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;

let doc: JsonSchema | undefined;
/** The document as the server builds it (tests/server/openapi.test.ts checks that the served one is this). */
export function openApiDocument(): JsonSchema {
  doc ??= buildOpenApiDocument({ version: pkg.version });
  return doc;
}

type Operation = { responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }> };

let matchers: { method: string; template: string; re: RegExp; op: Operation }[] | undefined;
/** The document's operation for a request, with its path template, or undefined for a path it does not list. */
export function operationOf(method: string, url: string): { template: string; op: Operation } | undefined {
  matchers ??= Object.entries(openApiDocument().paths as Record<string, Record<string, Operation>>).flatMap(([template, ops]) =>
    Object.entries(ops).map(([m, op]) => ({ method: m.toUpperCase(), template, op, re: new RegExp(`^${template.replace(/\./g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`) })),
  );
  const path = url.split('?')[0]!.split('#')[0]!;
  return matchers.find((m) => m.method === method && m.re.test(path));
}

let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

/** A validator of `schema`, whose `$ref`s point into the document's components. */
function validatorFor(key: string, schema: JsonSchema): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    if (!ajv) {
      // strict off: the document's `components` ride along as a keyword Ajv does not know, so that
      // `#/components/schemas/X` resolves inside the compiled schema.
      ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
    }
    v = ajv.compile({ ...schema, components: openApiDocument().components });
    validators.set(key, v);
  }
  return v;
}

/**
 * What is wrong with a JSON answer against the OpenAPI document, or null: the schema of its status (or the
 * operation's `default`, for errors), or the error component for a path the document does not have. Answers
 * that are not JSON (redirects, 204) and paths outside /api/ are contract.ts's to judge.
 */
export function openApiViolation(r: SeenResponse): string | null {
  if (!r.url.startsWith('/api/') || !/^application\/json\b/.test(r.contentType ?? '')) return null;
  const found = operationOf(r.method, r.url);
  let key: string;
  let schema: JsonSchema | undefined;
  if (found) {
    const response = found.op.responses[String(r.status)] ?? found.op.responses.default;
    schema = response?.content?.['application/json']?.schema;
    key = `${r.method} ${found.template} ${r.status in found.op.responses ? r.status : 'default'}`;
    if (!schema) return response ? null : `${r.method} ${found.template}: no response ${r.status} in the document`;
  } else {
    if (r.status < 400) return null; // contract.ts reports a success without a row
    schema = { $ref: '#/components/schemas/ApiErrorResponse' };
    key = 'error';
  }
  const validate = validatorFor(key, schema);
  if (validate(r.body)) return null;
  const errs = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
  return `${r.method} ${r.url} → ${r.status}: ${errs.join('; ')}`;
}
