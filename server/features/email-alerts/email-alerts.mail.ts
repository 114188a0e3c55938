/** Builds an alert's e-mail from its queued row: subject, plain text and HTML parts, RFC 8058 headers. */
import type { Mail } from '../../lib/mailer';
import { escapeHtml } from '@shared/texts/html';
import { emailAlertTexts as t } from '@shared/texts/email-alerts';
import { emailKindOf } from '@shared/rules/email-kinds';
import type { QueuedMail } from './email-alerts.repository';

const SETTINGS_PATH = '/podesavanja-obavestenja';

/** The notification's markup as plain text: tags dropped, the escapes undone. */
function markupToText(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, '')
    .replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!);
}

export interface MailParts {
  to: string;
  publicUrl: string;
  auctionTitle: string | null;
  unsubscribeToken: string | null;
}

/**
 * The mail of `row`. The notification's markup was escaped when it was made (shared/texts/notifications.ts) and
 * holds only links to /aukcija/{id}: they become absolute under PUBLIC_URL in the HTML part.
 */
export function buildAlertMail(row: QueuedMail, p: MailParts): Mail {
  const kind = emailKindOf(row.kind);
  const link = row.auction_id !== null ? `${p.publicUrl}/aukcija/${row.auction_id}` : `${p.publicUrl}/notifikacije`;
  const settings = `${p.publicUrl}${SETTINGS_PATH}`;
  const unsubscribe = p.unsubscribeToken ? `${p.publicUrl}/api/unsubscribe/${p.unsubscribeToken}/` : null;
  const folded = row.fold_count > 1 ? t.folded(row.fold_count) : null;
  const text = [
    markupToText(row.message),
    ...(folded ? ['', folded] : []),
    '',
    `${t.open} ${link}`,
    '',
    '--',
    t.footer(kind),
    `${t.settings} ${settings}`,
    ...(unsubscribe ? [`${t.unsubscribe} ${unsubscribe}`] : []),
    '',
    t.signature,
  ].join('\n');
  const body = row.message.replace(/href="\//g, `href="${escapeHtml(p.publicUrl)}/`).replace(/\n/g, '<br>\n');
  const a = (href: string, label: string) => `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
  const html =
    `<!doctype html><html lang="sr"><head><meta charset="utf-8"></head><body style="font-family:sans-serif;line-height:1.5">` +
    `<p>${body}</p>${folded ? `<p>${escapeHtml(folded)}</p>` : ''}<p>${a(link, t.openButton)}</p>` +
    `<hr><p style="color:#666;font-size:0.9em">${escapeHtml(t.footer(kind))}<br>${escapeHtml(t.settings)} ${a(settings, settings)}` +
    `${unsubscribe ? `<br>${escapeHtml(t.unsubscribe)} ${a(unsubscribe, unsubscribe)}` : ''}</p>` +
    `<p>${escapeHtml(t.signature)}</p></body></html>`;
  const headers: Record<string, string> = unsubscribe
    ? { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
    : {};
  return { to: p.to, subject: t.subject(kind, p.auctionTitle), text, html, headers };
}
