import { z } from 'zod';
import { sr } from '../texts/sr';
import { srv } from '../texts/server';
import { CITY_MAX, EMAIL_RE, NAME_MAX, PASSWORD_MAX, PASSWORD_RE, REGISTRATION_PHONE_RE } from '../rules/limits';

const t = sr.register;

/** A required string: missing/non-string/blank all give `message`. */
export const requiredString = (message: string, max = 10_000, maxMessage = message) =>
  z.string({ error: message }).trim().min(1, { error: message, abort: true }).max(max, maxMessage);

export const emailField = z
  .string({ error: t.emailRequired })
  .trim()
  .min(1, { error: t.emailRequired, abort: true })
  .max(254, { error: t.emailInvalid, abort: true })
  .regex(EMAIL_RE, t.emailInvalid)
  .transform((e) => e.toLowerCase());

/** Optional plus, then 6–15 digits; spaces, slashes and dashes are dropped first. */
export const registrationPhoneField = z
  .string({ error: t.phoneRequired })
  .trim()
  .min(1, t.phoneRequired)
  .transform((p) => p.replace(/[\s/-]/g, ''))
  .pipe(z.string().regex(REGISTRATION_PHONE_RE, t.phoneInvalid));

/** The registration password policy (spec §5), also used by change-password and reset. */
export const passwordField = z
  .string({ error: t.passwordRequired })
  .min(1, { error: t.passwordRequired, abort: true })
  .max(PASSWORD_MAX, { error: t.passwordInvalid, abort: true })
  .regex(PASSWORD_RE, t.passwordInvalid);

/** A request body object; anything else (array, string, null) gets a Serbian message, not zod's English one. */
const body = <S extends z.ZodRawShape>(shape: S) => z.object(shape, { error: srv.invalidInput });

const firstNameField = requiredString(t.firstNameRequired, NAME_MAX, srv.nameTooLong);
const cityField = z.string({ error: srv.cityInvalid }).trim().max(CITY_MAX, srv.cityInvalid);

export const RegisterInput = body({
  first_name: firstNameField,
  email: emailField,
  phone_number: registrationPhoneField,
  password: passwordField,
  city: cityField.optional().default(''),
});
export type RegisterInput = z.infer<typeof RegisterInput>;

/** The client form adds the confirmation (client-only, spec §3). */
export const RegisterForm = RegisterInput.extend({
  confirmPassword: z.string({ error: t.confirmRequired }).min(1, t.confirmRequired),
}).refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: t.confirmMismatch });

export const LoginInput = body({
  email: z.string({ error: sr.login.required }).trim().min(1, sr.login.required).max(254, sr.login.invalid),
  password: z.string({ error: sr.login.required }).min(1, sr.login.required).max(PASSWORD_MAX, sr.login.invalid),
});
export type LoginInput = z.infer<typeof LoginInput>;

/** POST /api/verify/resend/ and POST /api/password-reset/. */
export const EmailOnlyInput = body({ email: emailField });
export type EmailOnlyInput = z.infer<typeof EmailOnlyInput>;

/**
 * PUT /api/update-profile/. An empty (or missing) phone is allowed — the spec's profile form only warns —
 * but a non-empty one follows the registration rule. `email` may be sent (the form does) but must be the
 * account's own address: the server rejects any other with 400 {email}.
 */
export const UpdateProfileInput = body({
  first_name: firstNameField,
  phone_number: z
    .string({ error: t.phoneInvalid })
    .trim()
    .transform((p) => p.replace(/[\s/-]/g, ''))
    .refine((p) => p === '' || REGISTRATION_PHONE_RE.test(p), t.phoneInvalid)
    .optional(),
  city: cityField.optional(),
  email: z.string({ error: srv.emailImmutable }).trim().max(254, srv.emailImmutable).optional(),
});
export type UpdateProfileInput = z.infer<typeof UpdateProfileInput>;

export const ChangePasswordInput = body({
  old_password: z.string({ error: srv.oldPasswordRequired }).min(1, srv.oldPasswordRequired).max(PASSWORD_MAX, srv.oldPasswordWrong),
  new_password: passwordField,
});
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

export const PasswordResetConfirmInput = body({
  token: z.string({ error: srv.resetTokenRequired }).trim().min(1, srv.resetTokenRequired).max(200, srv.resetTokenInvalid),
  password: passwordField,
});
export type PasswordResetConfirmInput = z.infer<typeof PasswordResetConfirmInput>;

export const GoogleLoginInput = body({
  id_token: z.string({ error: srv.googleTokenRequired }).trim().min(1, srv.googleTokenRequired).max(8192, srv.googleFailed),
});
export type GoogleLoginInput = z.infer<typeof GoogleLoginInput>;

/** 201 answer of POST /api/user/register/: `email` as stored (lower case). */
export const RegisterResponse = z.object({ detail: z.string(), email: z.string() });
export type RegisterResponse = z.infer<typeof RegisterResponse>;
/** `redirect_url` only for an admin (their dashboard). */
export const LoginResponse = z.object({ detail: z.string(), redirect_url: z.string().optional() });
export type LoginResponse = z.infer<typeof LoginResponse>;
export const GoogleLoginResponse = LoginResponse.extend({ is_new_user: z.boolean() });
export type GoogleLoginResponse = z.infer<typeof GoogleLoginResponse>;
export const GoogleConfigResponse = z.object({ enabled: z.boolean(), redirect_enabled: z.boolean(), client_id: z.string().nullable() });
export type GoogleConfigResponse = z.infer<typeof GoogleConfigResponse>;
export const StatusResponse = z.object({ is_authenticated: z.boolean(), username: z.string().nullable() });
export type StatusResponse = z.infer<typeof StatusResponse>;
export const UsernameResponse = z.object({ username: z.string() });
export type UsernameResponse = z.infer<typeof UsernameResponse>;
export const DetailResponse = z.object({ detail: z.string() });
export type DetailResponse = z.infer<typeof DetailResponse>;
/** GET /api/csrf/: the token to send as X-CSRFToken (also set as the `csrftoken` cookie). */
export const CsrfResponse = z.object({ csrftoken: z.string() });
export type CsrfResponse = z.infer<typeof CsrfResponse>;
export const CurrentUserData = z.object({
  id: z.number(),
  first_name: z.string(),
  phone_number: z.string(),
  city: z.string(),
  email: z.string(),
  is_superuser: z.boolean(),
  is_verified: z.boolean(),
  /** false for accounts created through Google that never set a password (change-password can't work). */
  has_password: z.boolean(),
});
export type CurrentUserData = z.infer<typeof CurrentUserData>;
export const UpdateProfileResponse = CurrentUserData.extend({ detail: z.string() });
export type UpdateProfileResponse = z.infer<typeof UpdateProfileResponse>;

/** GET /api/admin/users/ items. */
export const AdminUser = z.object({
  id: z.number(),
  first_name: z.string(),
  email: z.string(),
  is_verified: z.boolean(),
  is_superuser: z.boolean(),
  is_blocked: z.boolean(),
  created_at: z.string(),
});
export type AdminUser = z.infer<typeof AdminUser>;

/**
 * Query values of the redirect after GET /api/verify/{code}/ → /login?verified=…:
 * `1` verified now; `already` the link was used before and the account is verified; `0` invalid or expired
 * (the client offers a new link via POST /api/verify/resend/).
 * After the Google redirect flow fails → /login?google=failed | blocked.
 */
export const VERIFY_RESULT = { ok: '1', already: 'already', failed: '0' } as const;
export const GOOGLE_REDIRECT_ERROR = { failed: 'failed', blocked: 'blocked' } as const;
