/**
 * Serbian texts of the list's price and city filters and of saved searches (issue 28). A module of its own: only
 * the lazy chunk of /aukcije's extra filters and /sacuvane-pretrage imports it (the first-load budget).
 */

export const savedSearchTexts = {
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
};
