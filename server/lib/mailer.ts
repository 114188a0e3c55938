import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra header lines, e.g. RFC 8058's List-Unsubscribe and List-Unsubscribe-Post. */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

const FROM = 'Aukcije <no-reply@aukcije.rs>';

/**
 * Sends through SMTP_URL when set; otherwise writes each mail to DATA_DIR/outbox/*.eml and logs its links,
 * so a developer can follow a verification link without any mail server.
 */
export function createMailer(opts: { smtpUrl?: string; outboxDir: string; logger: Logger }): Mailer {
  // nodemailer (0.4 MB) is loaded with the first mail, not at start (docs/performance.md, "B4 as users run it").
  let transport: Promise<Transporter> | undefined;
  const smtpUrl = opts.smtpUrl;
  if (smtpUrl) {
    const smtp = () => (transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl)));
    return {
      async send(mail) {
        await (await smtp()).sendMail({ from: FROM, ...mail });
      },
    };
  }
  const stream = () =>
    (transport ??= import('nodemailer').then((m) => m.default.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })));
  return {
    async send(mail) {
      const info = await (await stream()).sendMail({ from: FROM, ...mail });
      fs.mkdirSync(opts.outboxDir, { recursive: true });
      const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = path.join(opts.outboxDir, `${Date.now()}-${crypto.randomBytes(4).toString('hex')}-${safeTo}.eml`);
      fs.writeFileSync(file, info.message as Buffer);
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      opts.logger.info({ to: mail.to, subject: mail.subject, file, links }, 'e-mail written to outbox');
    },
  };
}
