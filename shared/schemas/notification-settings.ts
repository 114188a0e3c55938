import { z } from 'zod';

import { EMAIL_KINDS, type EmailKind } from '../rules/email-kinds';

const emailShape = Object.fromEntries(EMAIL_KINDS.map((k) => [k, z.boolean()])) as Record<EmailKind, z.ZodBoolean>;

/** GET/PUT /api/notification-settings/: which kinds are mailed (all true for a new member). */
export const NotificationSettingsResponse = z.object({ email: z.object(emailShape).strict() });
export type NotificationSettingsResponse = z.infer<typeof NotificationSettingsResponse>;

/** PUT /api/notification-settings/: any subset of the kinds. */
export const NotificationSettingsInput = z.object({ email: z.object(emailShape).partial().strict() }).strict();
export type NotificationSettingsInput = z.infer<typeof NotificationSettingsInput>;

/** POST /api/unsubscribe/{token}/ (RFC 8058): the one body a one-click unsubscribe carries. */
export const OneClickInput = z.object({ 'List-Unsubscribe': z.literal('One-Click') });

/** POST /api/unsubscribe/{token}/ answers this to a JSON client. */
export const UnsubscribeResponse = z.object({ kind: z.enum(EMAIL_KINDS), email: z.literal(false) });
export type UnsubscribeResponse = z.infer<typeof UnsubscribeResponse>;
