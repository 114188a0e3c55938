import { z } from 'zod';
import { sr } from '../texts/sr';
import { CITY_MAX, EMAIL_RE, NAME_MAX, PASSWORD_MAX, PASSWORD_RE, REGISTRATION_PHONE_RE } from '../rules/limits';

const t = sr.register;

/** A required string: missing/non-string/blank all give `message`. */
export const requiredString = (message: string, max = 10_000, maxMessage = message) =>
  z.string({ error: message }).trim().min(1, message).max(max, maxMessage);

export const emailField = z
  .string({ error: t.emailRequired })
  .trim()
  .min(1, t.emailRequired)
  .max(254, t.emailInvalid)
  .regex(EMAIL_RE, t.emailInvalid)
  .transform((e) => e.toLowerCase());

export const registrationPhoneField = z
  .string({ error: t.phoneRequired })
  .trim()
  .min(1, t.phoneRequired)
  .transform((p) => p.replace(/[\s/-]/g, ''))
  .pipe(z.string().regex(REGISTRATION_PHONE_RE, t.phoneInvalid));

export const passwordField = z
  .string({ error: t.passwordRequired })
  .min(1, t.passwordRequired)
  .max(PASSWORD_MAX, t.passwordInvalid)
  .regex(PASSWORD_RE, t.passwordInvalid);

export const RegisterInput = z.object({
  first_name: requiredString(t.firstNameRequired, NAME_MAX),
  email: emailField,
  phone_number: registrationPhoneField,
  password: passwordField,
  city: z.string().trim().max(CITY_MAX).optional().default(''),
});
export type RegisterInput = z.infer<typeof RegisterInput>;

/** The client form adds the confirmation (client-only, spec §3). */
export const RegisterForm = RegisterInput.extend({
  confirmPassword: z.string({ error: t.confirmRequired }).min(1, t.confirmRequired),
}).refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: t.confirmMismatch });

export const LoginInput = z.object({
  email: z.string({ error: sr.login.required }).trim().min(1, sr.login.required).max(254, sr.login.invalid),
  password: z.string({ error: sr.login.required }).min(1, sr.login.required).max(PASSWORD_MAX, sr.login.invalid),
});
export type LoginInput = z.infer<typeof LoginInput>;

export const LoginResponse = z.object({ detail: z.string(), redirect_url: z.string().optional() });
export const StatusResponse = z.object({ is_authenticated: z.boolean(), username: z.string().nullable() });
export const UsernameResponse = z.object({ username: z.string() });
export const CurrentUserData = z.object({
  id: z.number(),
  first_name: z.string(),
  phone_number: z.string(),
  city: z.string(),
  email: z.string(),
  is_superuser: z.boolean(),
  is_verified: z.boolean(),
});
export type CurrentUserData = z.infer<typeof CurrentUserData>;
