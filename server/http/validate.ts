import type { z } from 'zod';
import { AppError, type FieldErrors } from './errors';
import { srv } from '@shared/texts/server';

/** Maps zod issues to `{field: [messages]}`; the first message becomes `detail`. */
export function toFieldErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : 'non_field_errors';
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

/** Parses `data` with a shared zod schema or throws a 400 AppError in the contract's shape. */
export function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data ?? {});
  if (result.success) return result.data;
  const fields = toFieldErrors(result.error);
  const first = Object.values(fields)[0]?.[0] ?? srv.invalidInput;
  throw new AppError(400, 'invalid', first, fields);
}

/** Parses a numeric id from a path parameter; anything else is a 404 (no oracle). */
export function parseId(value: unknown): number {
  const s = String(value ?? '');
  if (!/^\d{1,15}$/.test(s)) throw AppError.notFound();
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n <= 0) throw AppError.notFound();
  return n;
}
