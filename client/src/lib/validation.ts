import { sr } from '@shared/texts/sr';
import { RegisterForm, emailField, passwordField } from '@shared/schemas/accounts';
import type { z } from 'zod';

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** First message per top-level field of a zod error. */
export function firstErrors<K extends string>(error: z.ZodError): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '') as K;
    if (key && !out[key]) out[key] = issue.message;
  }
  return out;
}

export type RegisterField = 'first_name' | 'email' | 'phone_number' | 'password' | 'confirmPassword';
export type RegisterValues = Record<RegisterField, string>;

/** The registration rules of spec §5 (shared with the server through RegisterForm). */
export function validateRegistration(v: RegisterValues): FieldErrors<RegisterField> {
  const parsed = RegisterForm.safeParse(v);
  const errors: FieldErrors<RegisterField> = parsed.success ? {} : firstErrors<RegisterField>(parsed.error);
  // zod skips the object-level refine while fields are invalid; the user should still see the mismatch.
  if (!errors.confirmPassword && v.confirmPassword && v.password !== v.confirmPassword) {
    errors.confirmPassword = sr.register.confirmMismatch;
  }
  return errors;
}

export function validateEmail(email: string): string | undefined {
  const r = emailField.safeParse(email);
  return r.success ? undefined : r.error.issues[0]?.message;
}

export function validateNewPassword(password: string): string | undefined {
  const r = passwordField.safeParse(password);
  return r.success ? undefined : r.error.issues[0]?.message;
}

/** New password + confirmation (change and reset forms). */
export function validatePasswordPair(password: string, confirm: string): { password?: string; confirm?: string } {
  const out: { password?: string; confirm?: string } = {};
  const p = validateNewPassword(password);
  if (p) out.password = p;
  if (!confirm) out.confirm = sr.register.confirmRequired;
  else if (confirm !== password) out.confirm = sr.register.confirmMismatch;
  return out;
}
