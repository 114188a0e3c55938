/**
 * Serbian texts of reports ("Prijavi"), the moderation queue ('Prijave') and the audit log ('Dnevnik') of issue
 * 24: the server's answers and the UI's words. Imported only by the lazy report dialog and the admin pages on the
 * client, so nothing here weighs on the first load.
 */
import type { AuditAction, ReportAction, ReportReason, ReportStatus, ReportTargetType } from '../rules/reports';
import { REPORT_TEXT_MAX } from '../rules/reports';
import { escapeHtml } from './html';

const reasonLabels: Record<ReportReason, string> = {
  fraud: 'Prevara',
  prohibited: 'Zabranjen predmet',
  wrong_category: 'Pogrešna kategorija',
  offensive: 'Uvredljiv sadržaj',
  spam: 'Neželjeni sadržaj (spam)',
  non_payment: 'Kupac nije platio',
  other: 'Drugo',
};

const targetNames: Record<ReportTargetType, string> = { auction: 'aukciju', comment: 'komentar', member: 'člana' };
const targetTypeLabels: Record<ReportTargetType | 'report', string> = { auction: 'Aukcija', comment: 'Komentar', member: 'Član', report: 'Prijava' };

const statusLabels: Record<ReportStatus, string> = { open: 'Otvorene', resolved: 'Rešene', dismissed: 'Odbačene' };
const statusBadges: Record<ReportStatus, string> = { open: 'Otvorena', resolved: 'Rešena', dismissed: 'Odbačena' };

const actionLabels: Record<ReportAction, string> = {
  delete_target: 'Obriši sadržaj',
  block_owner: 'Blokiraj vlasnika',
  dismiss: 'Odbaci prijavu',
};

const auditLabels: Record<AuditAction, string> = {
  delete_auction: 'Obrisana aukcija',
  delete_comment: 'Obrisan komentar',
  block_user: 'Blokiran korisnik',
  unblock_user: 'Odblokiran korisnik',
  resolve_report: 'Rešena prijava',
  dismiss_report: 'Odbačena prijava',
};

export const reportTexts = {
  // The server's answers.
  created: 'Prijava je poslata. Hvala vam.',
  reasonInvalid: 'Izaberite razlog prijave.',
  targetTypeInvalid: 'Prijaviti se može aukcija, komentar ili član.',
  targetIdInvalid: 'Nije navedeno šta prijavljujete.',
  textInvalid: 'Opis nije ispravan.',
  textTooLong: `Opis može imati najviše ${REPORT_TEXT_MAX} znakova.`,
  textRequired: 'Opišite razlog prijave.',
  nonPaymentOnlyWinner: 'Razlog „Kupac nije platio“ važi samo za člana koji je pobedio na vašoj aukciji.',
  ownTarget: 'Ne možete prijaviti sopstvenu aukciju, komentar ili sebe.',
  targetNotFound: 'Ono što prijavljujete ne postoji.',
  reportNotFound: 'Prijava ne postoji.',
  alreadyClosed: 'Ova prijava je već zatvorena.',
  cannotDeleteMember: 'Član se ne može obrisati; možete ga blokirati.',
  actionInvalid: 'Izaberite radnju: obriši sadržaj, blokiraj vlasnika ili odbaci prijavu.',
  noteInvalid: 'Napomena nije ispravna.',
  noteTooLong: `Napomena može imati najviše ${REPORT_TEXT_MAX} znakova.`,
  statusInvalid: 'Status mora biti „open“, „resolved“ ili „dismissed“.',
  /** The reporter's `report_resolved` notification (markup, escaped): it never names the admin. */
  resolvedNotice(targetType: ReportTargetType, label: string | null, dismissed: boolean): string {
    const what = `${targetNames[targetType]}${label ? ` „${escapeHtml(label)}”` : ''}`;
    return dismissed
      ? `Pregledali smo vašu prijavu za ${what} i nismo našli kršenje pravila. Hvala što pomažete.`
      : `Vaša prijava za ${what} je rešena i preduzeli smo mere. Hvala što pomažete.`;
  },

  // The dialog ('Prijavi').
  report: 'Prijavi',
  reportAria: (what: string) => `Prijavi ${what}`,
  dialogTitle: (t: ReportTargetType) => `Prijavi ${targetNames[t]}`,
  reasonLegend: 'Razlog',
  reasonLabels,
  textLabel: 'Opis (obavezan za „Drugo”)',
  textHint: `Najviše ${REPORT_TEXT_MAX} znakova.`,
  send: 'Pošalji prijavu',
  sending: 'Šaljem…',
  cancel: 'Otkaži',
  close: 'Zatvori',
  sent: 'Prijava je poslata. Administrator će je pregledati.',
  alreadySent: 'Već ste prijavili ovo; prijava čeka pregled.',
  sendError: 'Prijava nije poslata. Pokušajte ponovo.',

  // The admin queue ('Prijave') and log ('Dnevnik').
  tabReports: 'Prijave',
  tabLog: 'Dnevnik',
  reportsTitle: 'Prijave',
  logTitle: 'Dnevnik administratora',
  statusFilter: 'Status',
  allStatuses: 'Sve',
  statusLabels,
  statusBadges,
  targetTypeLabels,
  actionLabels,
  auditLabels,
  deleted: 'obrisano',
  owner: 'Vlasnik',
  reporter: 'Prijavio',
  reportsOnTarget: (n: number) => `Prijava za ovo: ${n}`,
  noteLabel: 'Napomena (nije obavezna)',
  resolution: 'Odluka',
  by: 'administrator',
  noReports: 'Nema prijava.',
  noLog: 'Dnevnik je prazan.',
  actionDone: 'Prijava je zatvorena.',
  actionError: 'Radnja nije uspela. Pokušajte ponovo.',
  logTarget: (type: string, id: number) => `${type} #${id}`,
} as const;
