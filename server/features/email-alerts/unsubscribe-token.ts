import crypto from 'node:crypto';
import { emailKindOf, type EmailKind } from '@shared/rules/email-kinds';

/**
 * RFC 8058 one-click unsubscribe tokens: `<member id>.<kind>.<HMAC-SHA256 of both under a key derived from the
 * session secret>`, base64url. Only this server can make one; one token turns off one kind of one member and
 * nothing else. It does not expire: a mail client may use it months later (the RFC's point).
 */
export interface UnsubscribeTokens {
  issue(userId: number, kind: EmailKind): string;
  verify(token: unknown): { userId: number; kind: EmailKind } | null;
}

export function unsubscribeTokens(secret: string): UnsubscribeTokens {
  const key = crypto.createHash('sha256').update(`aukcije unsubscribe token\0${secret}`).digest();
  const mac = (payload: string) => crypto.createHmac('sha256', key).update(payload).digest('base64url');
  return {
    issue(userId, kind) {
      const payload = `${userId}.${kind}`;
      return `${payload}.${mac(payload)}`;
    },
    verify(token) {
      if (typeof token !== 'string' || token.length > 200) return null;
      const m = /^([1-9]\d{0,15})\.([a-z_]{1,40})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!m) return null;
      const kind = emailKindOf(m[2]!);
      const expected = Buffer.from(mac(`${m[1]}.${m[2]}`));
      const given = Buffer.from(m[3]!);
      if (!kind || expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
      return { userId: Number(m[1]), kind };
    },
  };
}
