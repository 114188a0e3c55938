/**
 * Serbian texts of the list's price and city filters and of saved searches (issue 28). A module of its own: only
 * the lazy chunks of /aukcije's extra filters and of /sacuvane-pretrage import it (the first-load budget).
 */
import { escapeHtml } from './html';

function auctionLink(auction: { id: number; title: string }): string {
  return `<a href="/aukcija/${Number(auction.id)}">${escapeHtml(auction.title)}</a>`;
}

export const savedSearchTexts = {
  badMinPrice: 'Najniža cena nije ispravna.',
  badMaxPrice: 'Najviša cena nije ispravna.',
  badCity: 'Grad nije ispravan.',
  minPriceLabel: 'Cena od (din)',
  maxPriceLabel: 'Cena do (din)',
  cityLabel: 'Grad',
  save: 'Sačuvaj pretragu',
  saving: 'Čuvanje…',
  saved: 'Pretraga je sačuvana.',
  title: 'Sačuvane pretrage',
  empty: 'Nemate sačuvanih pretraga.',
  remove: 'Obriši',
  removed: 'Pretraga je obrisana.',
  show: 'Prikaži',
  loadFailed: 'Sačuvane pretrage nije moguće učitati.',
  noCriteria: 'Pretraga mora imati bar jedan kriterijum: tekst, kategoriju, cenu ili grad.',
  tooMany: 'Možete sačuvati najviše 20 pretraga.',
  notFound: 'Sačuvana pretraga ne postoji.',
  anyCategory: 'sve kategorije',
  priceFrom: (n: number) => `od ${n} din`,
  priceTo: (n: number) => `do ${n} din`,
  more: 'Još',
  /** The in-app notification (and mail) of one new match. */
  matched(q: string | null, auction: { id: number; title: string }): string {
    return q
      ? `Nova aukcija za vašu pretragu „${escapeHtml(q)}”: ${auctionLink(auction)}`
      : `Nova aukcija za vašu sačuvanu pretragu: ${auctionLink(auction)}`;
  },
  /** The fold: the matches after the first inside the hour, sent when it ends, naming how many and the latest. */
  folded(q: string | null, count: number, latest: { id: number; title: string } | null): string {
    const head = q ? `Nove aukcije za vašu pretragu „${escapeHtml(q)}”` : 'Nove aukcije za vašu sačuvanu pretragu';
    return `${head}: još ${count} u poslednjih sat vremena${latest ? `, najnovija: ${auctionLink(latest)}` : ''}`;
  },
};
