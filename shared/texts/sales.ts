/**
 * Serbian texts of sales, ratings ("ocene") and public member profiles (issue 23): the server's answers and
 * the UI's words. Here, not in shared/schemas/sales.ts, so the pages and the header show them without zod.
 */
import { ratingScoreTexts } from './rating-score';
import { sr } from './sr';
import { NEGATIVE_COMMENT_MIN, RATING_COMMENT_MAX, REPLY_MAX } from '../rules/sales';

export const salesTexts = {
  // The server's answers (the wording where it gives one).
  alreadyRated: 'Već ste ocenili ovu kupoprodaju.',
  windowClosed: 'Rok za ocenjivanje je istekao.',
  negativeNeedsReason: `Obrazložite negativnu ocenu (najmanje ${NEGATIVE_COMMENT_MIN} znakova).`,
  valueInvalid: 'Izaberite ocenu: pozitivna ili negativna.',
  commentInvalid: 'Komentar nije ispravan.',
  commentTooLong: `Komentar može imati najviše ${RATING_COMMENT_MAX} znakova.`,
  replyRequired: 'Unesite odgovor.',
  replyTooLong: `Odgovor može imati najviše ${REPLY_MAX} znakova.`,
  alreadyReplied: 'Već ste odgovorili na ovu ocenu.',
  roleInvalid: 'Uloga mora biti kupac (buyer) ili prodavac (seller).',
  badPage: 'Stranica mora biti ceo broj veći od nule.',
  badPageSize: 'Veličina stranice mora biti ceo broj veći od nule.',
  memberNotFound: 'Član ne postoji.',
  saleNotFound: 'Kupoprodaja ne postoji.',
  ratingNotFound: 'Ocena ne postoji.',

  // The user menu and the two pages.
  // The titles are the user menu's labels (sr.header, in the first load without these texts).
  purchasesTitle: sr.header.myPurchases,
  salesTitle: sr.header.mySales,
  purchasesEmpty: 'Još niste ništa kupili na aukciji.',
  salesEmpty: 'Još niste ništa prodali na aukciji.',
  loadError: 'Podaci trenutno ne mogu da se učitaju. Pokušajte ponovo.',
  seller: 'Prodavac',
  buyer: 'Kupac',
  price: 'Cena',
  endedAt: 'Završeno',
  phone: 'Telefon',
  email: 'Email',
  city: 'Grad',
  myRating: 'Vaša ocena',
  theirRating: 'Ocena koju ste dobili',
  notRatedYet: 'Još niste ocenili.',
  notRatedByThem: 'Druga strana vas još nije ocenila.',
  rateUntil: (date: string) => `Ocenite do ${date}.`,
  rate: 'Oceni',
  rateTitle: (title: string) => `Ocena kupoprodaje: ${title}`,
  positive: 'Pozitivna',
  negative: 'Negativna',
  ratingLegend: 'Ocena',
  commentLabel: 'Komentar',
  commentHint: `Do ${RATING_COMMENT_MAX} znakova; uz negativnu ocenu najmanje ${NEGATIVE_COMMENT_MIN}.`,
  submitRating: 'Pošalji ocenu',
  ratingFinal: 'Ocena je konačna i ne može se menjati.',
  rated: 'Ocena je poslata.',
  reply: 'Odgovori',
  replyLabel: 'Vaš odgovor',
  submitReply: 'Pošalji odgovor',
  replyFrom: 'Odgovor',
  failed: 'Slanje nije uspelo. Pokušajte ponovo.',

  // The score and the public profile (/clan/{id}).
  score: ratingScoreTexts.score,
  percent: (p: number) => `${p}% pozitivnih`,
  noRatings: 'Još nema ocena.',
  memberSince: (date: string) => `Član od ${date}`,
  soldCount: (n: number) => `Prodato: ${n}`,
  boughtCount: (n: number) => `Kupljeno: ${n}`,
  activeCount: (n: number) => `Aktivne aukcije: ${n}`,
  ratingsTitle: 'Ocene',
  auctionsTitle: 'Aktivne aukcije',
  noAuctions: 'Član trenutno nema aktivnih aukcija.',
  asSeller: 'kao prodavac',
  asBuyer: 'kao kupac',
  from: 'Od',
  deletedAuction: 'obrisana aukcija',
  profileLink: 'Javni profil',
} as const;
