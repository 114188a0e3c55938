/** Words of the benchmark auctions (bulk seeder and API grower alike), so both databases search alike. */
export const NOUNS = ['Bicikl', 'Telefon', 'Sat', 'Šešir', 'Lampa', 'Stolica', 'Knjiga', 'Gitara', 'Kaput', 'Frižider', 'Laptop', 'Fotelja', 'Ćilim', 'Đak torba', 'Čizme', 'Žardinjera'];
export const ADJ = ['stari', 'novi', 'polovni', 'očuvan', 'retki', 'mali', 'veliki', 'crveni', 'plavi', 'drveni'];
export const CITIES = ['Beograd', 'Novi Sad', 'Niš', 'Kragujevac', 'Subotica', 'Čačak'];

/** Deterministic pseudo-random numbers, so two runs make the same data. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
