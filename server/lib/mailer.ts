import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
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
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: FROM, ...mail });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: FROM, ...mail });
      fs.mkdirSync(opts.outboxDir, { recursive: true });
      const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = path.join(opts.outboxDir, `${Date.now()}-${crypto.randomBytes(4).toString('hex')}-${safeTo}.eml`);
      fs.writeFileSync(file, info.message as Buffer);
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      opts.logger.info({ to: mail.to, subject: mail.subject, file, links }, 'e-mail written to outbox');
    },
  };
}
