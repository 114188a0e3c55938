/** The Serbian texts of e-mail alerts (issue 27): subjects, the mail's frame, the unsubscribe page, the settings page. */
import type { EmailKind } from '../rules/email-kinds';
import { escapeHtml } from './html';

/** What each kind is called: the subject's first half and the settings page's checkbox. */
export const emailKindLabels: Record<EmailKind, string> = {
  outbid: 'Vaša ponuda je nadmašena',
  won: 'Pobedili ste na aukciji',
  auction_ended: 'Vaša aukcija je završena',
  reserve_not_met: 'Rezervna cena nije dostignuta',
  ending_soon: 'Aukcija se uskoro završava',
  rating_received: 'Dobili ste novu ocenu',
  report_resolved: 'Vaša prijava je rešena',
  saved_search: 'Nove aukcije za sačuvanu pretragu',
};

export const emailAlertTexts = {
  /** The subject names the auction when the notification has one. */
  subject(kind: EmailKind | null, auctionTitle: string | null): string {
    const label = kind ? emailKindLabels[kind] : 'Novo obaveštenje';
    return auctionTitle ? `Aukcije: ${label}: ${auctionTitle}` : `Aukcije: ${label}`;
  },
  /** How many outbid notifications one folded mail stands for (more than one). */
  folded(count: number): string {
    return `Vaša ponuda na ovoj aukciji je nadmašena ${count} puta u poslednjih nekoliko minuta.`;
  },
  open: 'Otvorite na Aukcijama:',
  openButton: 'Otvori aukciju',
  footer(kind: EmailKind | null): string {
    const label = kind ? `„${emailKindLabels[kind]}”` : 'ove vrste';
    return `Ovu poruku ste dobili jer su vam uključena obaveštenja ${label} e-poštom.`;
  },
  settings: 'Podešavanja obaveštenja:',
  unsubscribe: 'Odjava od ovih poruka jednim klikom:',
  signature: 'Vaše Aukcije',
} as const;

/** The page GET /api/unsubscribe/{token}/ shows, and the answers of its button. */
export const unsubscribeTexts = {
  title: 'Odjava od obaveštenja e-poštom',
  question(kind: EmailKind): string {
    return `Da li želite da više ne dobijate e-poruke „${emailKindLabels[kind]}”? Obaveštenja na sajtu ostaju uključena.`;
  },
  button: 'Odjavi me',
  done(kind: EmailKind): string {
    return `Odjavljeni ste. Više vam nećemo slati e-poruke „${emailKindLabels[kind]}”. Možete ih ponovo uključiti u podešavanjima obaveštenja.`;
  },
  invalid: 'Link za odjavu nije ispravan. Obaveštenja možete isključiti u podešavanjima obaveštenja na sajtu.',
  settingsLink: 'Podešavanja obaveštenja',
  badBody: 'Zahtev za odjavu nije ispravan: očekuje se List-Unsubscribe=One-Click.',
} as const;

/** A complete, self-contained Serbian HTML page (the unsubscribe route's answers); `body` is markup already. */
export function simplePage(title: string, body: string): string {
  return `<!doctype html><html lang="sr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5"><h1 style="font-size:1.4rem">${escapeHtml(title)}</h1>${body}</body></html>`;
}
