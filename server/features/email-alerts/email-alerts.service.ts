import type { DbOrTx } from '../../db/types';
import { isoAt } from '../../lib/time';
import { allEmailKindsOn, EMAIL_KINDS, type EmailKind } from '@shared/rules/email-kinds';
import type { NotificationSettingsInput, NotificationSettingsResponse } from '@shared/schemas/notification-settings';
import { optedOutKinds, setEmailKinds, userExists } from './email-alerts.repository';

/** A member's e-mail settings: every kind on except those turned off. */
export async function getNotificationSettings(db: DbOrTx, userId: number): Promise<NotificationSettingsResponse> {
  const off = new Set(await optedOutKinds(db, userId));
  const email = allEmailKindsOn();
  for (const k of EMAIL_KINDS) email[k] = !off.has(k);
  return { email };
}

/** Applies the kinds given (the others stay) and answers the whole settings. */
export async function updateNotificationSettings(db: DbOrTx, userId: number, input: NotificationSettingsInput): Promise<NotificationSettingsResponse> {
  await setEmailKinds(db, userId, input.email, isoAt(Date.now()));
  return getNotificationSettings(db, userId);
}

/** RFC 8058: turns one kind off for the member its token names (idempotent). */
export async function unsubscribe(db: DbOrTx, userId: number, kind: EmailKind): Promise<void> {
  if (await userExists(db, userId)) await setEmailKinds(db, userId, { [kind]: false }, isoAt(Date.now()));
}
