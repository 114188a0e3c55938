import type { TestServer } from '../../support/app';

/** Waits until a mail to `to` (whose text matches `re`) is in the outbox and returns the first match of `re`. */
export async function waitForMail(t: TestServer, to: string, re: RegExp, timeoutMs = 3000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = t.outbox().filter((m) => m.text.toLowerCase().includes(`to: ${to.toLowerCase()}`));
    for (const m of mails.reverse()) {
      const match = m.text.match(re);
      if (match) return match;
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${re}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Counts the mails to `to` in the outbox. */
export function mailsTo(t: TestServer, to: string): number {
  return t.outbox().filter((m) => m.text.toLowerCase().includes(`to: ${to.toLowerCase()}`)).length;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const VERIFY_LINK = /http:\/\/127\.0\.0\.1:\d+\/api\/verify\/([A-Za-z0-9_-]+)\//;
export const RESET_LINK = /http:\/\/127\.0\.0\.1:\d+\/zaboravljena-lozinka\/([A-Za-z0-9_-]+)/;
